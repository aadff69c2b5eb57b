import NIOHTTP1

/// Reads the cookies a request carries and checks the cookies the lab is asked to set.
enum CookieHeader {
    /// The name/value pairs of every Cookie header, in order, each name once (the first wins, as most
    /// servers read it; the raw header in `/echo` still shows repeats).
    ///
    /// Pairs are split on ";" and trimmed; a pair without "=" is a name with an empty value. HTTP/2 clients
    /// may send each cookie as its own header, so every Cookie header counts.
    static func pairs(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        var seen: Set<String> = []
        var pairs: [(name: String, value: String)] = []
        for header in headers[canonicalForm: "cookie"] {
            for item in header.split(separator: ";") {
                let text = item.trimmingCharacters(in: " \t")
                guard !text.isEmpty else { continue }
                let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: " \t")
                let value = parts.count > 1 ? parts[1].trimmingCharacters(in: " \t") : ""
                if seen.insert(name).inserted { pairs.append((name, value)) }
            }
        }
        return pairs
    }

    /// Whether `text` can go into a header value: no CR, LF or NUL, which would split or end the header.
    static func isSingleLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
    }
}

extension Substring {
    /// Without leading and trailing `characters`; avoids Foundation for a two-character trim.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }),
            let last = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
