/// How `YAMLWriter` writes a scalar: plain when that reads back as the same text of the same
/// kind, double-quoted with escapes otherwise.
///
/// The plain rules are deliberately narrower than YAML's: what they allow was chosen to be
/// unambiguous to any YAML reader (1.1 or 1.2), and the tests confirm it against libyaml's.
extension YAMLWriter {
    /// The text `value` is written as, in a block (`inFlow` false) or a flow collection; "" for
    /// an empty `.plain` (the value is then left out).
    static func scalarText(_ value: YAMLValue, inFlow: Bool) -> String {
        switch value {
        case .string(let text):
            return scalarText(text, plainAllowed: isPlainString(text, inFlow: inFlow))
        case .plain(let text):
            if text.isEmpty { return "" }
            return scalarText(text, plainAllowed: isPlainAsGiven(text, inFlow: inFlow))
        case .integer(let number):
            return String(number)
        case .boolean(let flag):
            return flag ? "true" : "false"
        case .sequence, .mapping:
            return ""
        }
    }

    static func scalarText(_ text: String, plainAllowed: Bool) -> String {
        plainAllowed ? text : doubleQuoted(text)
    }

    // MARK: Plain strings

    /// Whether `text` written plain reads back as this text and as a string: it starts with a
    /// letter, `/`, `_` or `$` (never a digit, sign or dot, so never a number; never an
    /// indicator), holds only ASCII letters, digits, single inner spaces and a few punctuation
    /// marks, and is no YAML 1.1 boolean or null word (`yes`, `off`, `null`, in any case).
    static func isPlainString(_ text: String, inFlow: Bool) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, let last = bytes.last else { return false }
        guard isLetter(first) || first == UInt8(ascii: "/") || first == UInt8(ascii: "_") || first == UInt8(ascii: "$") else {
            return false
        }
        guard last != UInt8(ascii: " "), last != UInt8(ascii: ":") else { return false }
        for (index, byte) in bytes.enumerated() {
            let allowed = inFlow ? plainFlowPunctuation : plainBlockPunctuation
            guard isLetter(byte) || isDigit(byte) || allowed.contains(byte) else { return false }
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            // `: ` starts a value; two spaces are kept by libyaml but read as a typo.
            if byte == UInt8(ascii: ":"), next == UInt8(ascii: " ") { return false }
            if byte == UInt8(ascii: " "), next == UInt8(ascii: " ") { return false }
        }
        return !reservedWords.contains(text.lowercased())
    }

    /// YAML 1.1's booleans and null: a plain one would read back as another kind.
    private static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null"]

    /// Punctuation a plain string may hold after its first character. No `#` (` #` starts a
    /// comment), no quotes or backslash (legal, but they read as if they quoted or escaped).
    private static let plainBlockPunctuation: Set<UInt8> = Set(" /._-:@+=?&%~();,*!${}[]".utf8)
    /// In a flow collection `,[]{}` end or open a collection, and libyaml versions differ on `:`.
    private static let plainFlowPunctuation: Set<UInt8> = Set(" /._-@+=?&%~();*!$".utf8)

    // MARK: Plain as given

    /// Whether `text` (not empty) can be written plain where a value goes and read back as the
    /// same plain scalar: YAML's own plain rules, taken narrowly.
    static func isPlainAsGiven(_ text: String, inFlow: Bool) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        let second = scalars.count > 1 ? scalars[1] : nil
        if plainIndicators.contains(first) { return false }
        // `-1`, `-x`: a dash starts a plain scalar when a character that could continue one follows.
        if first == "-" {
            guard let second, second != " ", !(inFlow && flowIndicators.contains(second)) else { return false }
        }
        if first == " " || last == " " || last == ":" { return false }
        for (index, scalar) in scalars.enumerated() {
            guard isPrintable(scalar), !isLineBreak(scalar), scalar != "\t" else { return false }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == ":", next == " " { return false }
            if scalar == "#", index > 0, scalars[index - 1] == " " { return false }
            if inFlow, flowIndicators.contains(scalar) || scalar == ":" || scalar == "#" { return false }
        }
        return true
    }

    /// Characters that cannot start a plain scalar (`-` is decided apart; `?` and `:` may
    /// start one in some places, but not reliably in every reader, so never here).
    private static let plainIndicators: Set<Unicode.Scalar> = Set("?:,[]{}#&*!|>'\"%@`".unicodeScalars)
    private static let flowIndicators: Set<Unicode.Scalar> = Set(",[]{}".unicodeScalars)

    // MARK: Double quotes

    /// `text` double-quoted on one line: `\\`, `\"`, `\0 \t \n \r`, other C0 controls and DEL as
    /// `\xNN`, C1 controls and the characters YAML reads as line breaks or a byte-order mark as
    /// `\uXXXX`; everything else as is. `$` is not escaped (`${…}` is the plan's, not YAML's).
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\0": quoted += "\\0"
            case "\t": quoted += "\\t"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\x" + hex(scalar.value, digits: 2)
                } else if !isPrintable(scalar) || isLineBreak(scalar) {
                    quoted += "\\u" + hex(scalar.value, digits: 4)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    // MARK: Characters

    /// What libyaml's reader accepts in a file, less the byte-order mark (read as one anywhere
    /// by some readers): tab, printable ASCII, and Unicode from U+00A0 but for U+FFFE and U+FFFF.
    /// NEL (U+0085) is left out too: it is a line break.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20...0x7E: return true
        case 0xA0...0xD7FF, 0xE000...0xFFFD: return scalar.value != 0xFEFF
        case 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// The characters YAML 1.1 reads as line breaks.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
