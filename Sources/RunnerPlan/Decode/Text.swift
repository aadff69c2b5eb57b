/// A scalar value after `${…}` substitution, with what messages may show of it.
struct Text: Sendable {
    var value: String
    var mark: YAMLMark
    /// How it was written, and what messages show of it when that is not `value`.
    ///
    /// Kept to 32 bytes with `value` and `mark`: a larger `Text` (and `Text?`, which every
    /// value reader returns) was copied and destroyed through generic value witnesses, about
    /// 150 instructions each time, some twenty times a scenario.
    private var form: Form

    private enum Form: Sendable {
        /// Shown as it is (nothing in it is secret): most values.
        case asWritten(YAMLScalarStyle, forcedString: Bool)
        case masked(Masked)
    }

    private final class Masked: Sendable {
        let shown: String
        let style: YAMLScalarStyle
        let forcedString: Bool

        init(shown: String, style: YAMLScalarStyle, forcedString: Bool) {
            self.shown = shown
            self.style = style
            self.forcedString = forcedString
        }
    }

    /// A substituted value, shown as `shown` (secrets replaced by `***`).
    init(value: String, shown: String, mark: YAMLMark, style: YAMLScalarStyle, forcedString: Bool) {
        self.value = value
        self.mark = mark
        // With no secret in it, the substitution hands back the one String twice.
        form = shown == value
            ? .asWritten(style, forcedString: forcedString)
            : .masked(Masked(shown: shown, style: style, forcedString: forcedString))
    }

    /// A value shown as it is (nothing in it is secret).
    init(value: String, mark: YAMLMark, style: YAMLScalarStyle, forcedString: Bool) {
        self.value = value
        self.mark = mark
        form = .asWritten(style, forcedString: forcedString)
    }

    /// `value` with secrets replaced by `***`: the only form an error message may quote.
    var shown: String {
        switch form {
        case .asWritten: return value
        case .masked(let masked): return masked.shown
        }
    }

    var style: YAMLScalarStyle {
        switch form {
        case .asWritten(let style, _): return style
        case .masked(let masked): return masked.style
        }
    }

    /// Tagged `!!str` or `!`: a string whatever it looks like.
    var forcedString: Bool {
        switch form {
        case .asWritten(_, let forcedString): return forcedString
        case .masked(let masked): return masked.forcedString
        }
    }

    static func isStringTag(_ tag: YAMLTag?) -> Bool {
        tag?.forcesString ?? false
    }

    /// Plain and untagged: typed the YAML 1.2 core way (`10` is a number, `true` a bool).
    var isPlain: Bool {
        // One look at `form` (asked of every value, through `isNull`).
        switch form {
        case .asWritten(let style, let forcedString): return style == .plain && !forcedString
        case .masked(let masked): return masked.style == .plain && !masked.forcedString
        }
    }

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
