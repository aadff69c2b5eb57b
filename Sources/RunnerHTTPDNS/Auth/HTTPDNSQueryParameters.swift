import Foundation

/// A query URL's parameters as written, so a scheme can read values and set some while every
/// other byte of the URL stays exactly as it was (a comma list stays a comma list).
struct HTTPDNSQueryParameters {
    /// Everything before `?` (or before the fragment when there is no query).
    private let head: Substring
    /// `name=value` or a bare `name`, raw (still percent-encoded), in order.
    private var pairs: [(name: Substring, value: Substring?)]
    /// `#…` or empty: it stays last.
    private let fragment: Substring

    init(url: String) {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        fragment = url[fragmentStart...]
        let beforeFragment = url[..<fragmentStart]
        guard let questionMark = beforeFragment.firstIndex(of: "?") else {
            head = beforeFragment
            pairs = []
            return
        }
        head = beforeFragment[..<questionMark]
        pairs = beforeFragment[beforeFragment.index(after: questionMark)...]
            .split(separator: "&", omittingEmptySubsequences: true)
            .map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return (pair, nil) }
                return (pair[..<equals], pair[pair.index(after: equals)...])
            }
    }

    /// The URL with the parameters as they now are.
    var url: String {
        guard !pairs.isEmpty else { return String(head) + fragment }
        let query = pairs.map { pair in pair.value.map { "\(pair.name)=\($0)" } ?? String(pair.name) }
        return "\(head)?\(query.joined(separator: "&"))\(fragment)"
    }

    /// Each parameter's name, decoded where it is percent-encoded, in order.
    var names: [String] { pairs.map { String($0.name).removingPercentEncoding ?? String($0.name) } }

    /// Removes every parameter `name`.
    mutating func remove(_ name: String) {
        pairs.removeAll { $0.name == name }
    }

    /// Whether the query has a parameter `name`.
    func has(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// The first value of `name`, percent-decoded (a bare `name` is the empty string); nil when
    /// the query has no `name`.
    func value(_ name: String) throws(HTTPDNSProblem) -> String? {
        guard let pair = pairs.first(where: { $0.name == name }) else { return nil }
        return try Self.decode(pair.value ?? "", name: name)
    }

    /// Sets `name` to `value` (percent-encoded here): the first occurrence keeps its place and
    /// later ones go; a new parameter goes last.
    mutating func set(_ name: String, to value: String) {
        let encoded = Substring(HTTPDNSQueryURL.encode(value))
        guard let first = pairs.firstIndex(where: { $0.name == name }) else {
            pairs.append((Substring(name), encoded))
            return
        }
        pairs[first].value = encoded
        var index = pairs.index(after: first)
        while index < pairs.endIndex {
            if pairs[index].name == name { pairs.remove(at: index) } else { index += 1 }
        }
    }

    /// Replaces every value of `name` by what `transform` makes of it (given decoded,
    /// returned as it goes on the wire, unencoded). Returns how many values it replaced.
    @discardableResult
    mutating func replaceValues(
        of name: String, _ transform: (String) throws(HTTPDNSProblem) -> String
    ) throws(HTTPDNSProblem) -> Int {
        var count = 0
        for index in pairs.indices where pairs[index].name == name {
            let plain = try Self.decode(pairs[index].value ?? "", name: name)
            pairs[index].value = Substring(HTTPDNSQueryURL.encode(try transform(plain)))
            count += 1
        }
        return count
    }

    private static func decode(_ raw: Substring, name: String) throws(HTTPDNSProblem) -> String {
        guard let decoded = String(raw).removingPercentEncoding else {
            throw HTTPDNSProblem(
                .query, "the value of '\(name)' has a malformed percent-encoding: \(HTTPDNSBodyQuote.quoteText(String(raw)))")
        }
        return decoded
    }
}
