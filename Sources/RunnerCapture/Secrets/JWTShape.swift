/// Finds JSON Web Tokens in any text: three base64url parts, the first two JSON objects (`eyJ`
/// is `{"` in base64url), as every JWT library writes them.
enum JWTShape {
    /// The ranges of every JWT-shaped run in `text`, in order.
    static func ranges(in text: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var searchStart = text.startIndex
        while let start = text.range(of: "eyJ", range: searchStart..<text.endIndex) {
            if let end = tokenEnd(in: text, from: start.lowerBound) {
                found.append(start.lowerBound..<end)
                searchStart = end
            } else {
                searchStart = start.upperBound
            }
        }
        return found
    }

    /// The JWT-shaped substrings of `text`.
    static func tokens(in text: String) -> [String] {
        ranges(in: text).map { String(text[$0]) }
    }

    private static func isBase64URL(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }

    /// Where a token starting at `start` ends: header and payload of at least 8 characters each,
    /// the payload starting `eyJ` too, then a signature (possibly empty for `alg: none`).
    private static func tokenEnd(in text: String, from start: String.Index) -> String.Index? {
        if start > text.startIndex, isBase64URL(text[text.index(before: start)]) { return nil }
        var index = start
        func part() -> Int {
            var length = 0
            while index < text.endIndex, isBase64URL(text[index]) {
                length += 1
                index = text.index(after: index)
            }
            return length
        }
        guard part() >= 8, index < text.endIndex, text[index] == "." else { return nil }
        index = text.index(after: index)
        guard text[index...].hasPrefix("eyJ"), part() >= 8, index < text.endIndex, text[index] == "." else { return nil }
        index = text.index(after: index)
        _ = part()
        return index
    }
}
