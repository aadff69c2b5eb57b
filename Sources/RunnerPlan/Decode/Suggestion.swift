/// "Did you mean …?" for misspelt keys and names.
package enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let normalized = normalize(word)
        guard !normalized.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let target = normalize(candidate)
            if target == normalized { return candidate }
            let limit = max(1, min(3, target.count / 3))
            var distance = editDistance(normalized, target, limit: limit)
            // A clear prefix (`sni` for `sni-resolve`) also counts as close.
            if distance > limit, normalized.count >= 3, target.starts(with: normalized) { distance = limit }
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` or the empty string.
    static func phrase(for word: String, among candidates: some Sequence<String>) -> String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Case, `-` and `_` do not count: `Connect-Timeout` matches `connect_timeout`.
    private static func normalize(_ text: String) -> [UInt8] {
        text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
            case UInt8(ascii: "-"): return UInt8(ascii: "_")
            default: return byte
            }
        }
    }

    /// Levenshtein distance with adjacent transpositions, giving up past `limit`.
    static func editDistance(_ lhs: [UInt8], _ rhs: [UInt8], limit: Int) -> Int {
        if abs(lhs.count - rhs.count) > limit { return limit + 1 }
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previousPrevious = [Int](repeating: 0, count: rhs.count + 1)
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[rhs.count]
    }
}
