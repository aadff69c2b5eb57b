/// A scalar value after `${…}` substitution, with what messages may show of it.
struct Text: Sendable {
    var value: String
    /// `value` with secrets replaced by `***`: the only form an error message may quote.
    var shown: String
    var mark: YAMLMark
    var style: YAMLScalarStyle
    /// Tagged `!!str` or `!`: a string whatever it looks like.
    var forcedString: Bool

    static func isStringTag(_ tag: YAMLTag?) -> Bool {
        tag?.forcesString ?? false
    }

    /// Plain and untagged: typed the YAML 1.2 core way (`10` is a number, `true` a bool).
    var isPlain: Bool { style == .plain && !forcedString }

    /// `~`, `null` or nothing, written plain.
    var isNull: Bool {
        guard isPlain else { return false }
        // Asked of every string value: rule most out by length before comparing text.
        switch value.utf8.count {
        case 0: return true
        case 1: return value == "~"
        case 4: return value == "null" || value == "Null" || value == "NULL"
        default: return false
        }
    }

    /// The value for a message: quoted, shortened, secrets masked.
    var quoted: String {
        if isNull, value.isEmpty { return "an empty value" }
        return "'\(Self.shorten(shown))'"
    }

    static func shorten(_ text: String) -> String {
        var result = ""
        var count = 0
        for character in text {
            if count == 60 { return result + "…" }
            switch character {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.append(character)
            }
            count += 1
        }
        return result
    }
}
