import Foundation
import RunnerResults

/// Values written as bash words that nothing in them can break out of: single-quoted, or
/// ANSI-C quoted (`$'…'`) when they hold a control character, so a line stays one line; named
/// secrets as `"$NAME"` environment references, never their values.
enum ShellWord {
    /// `value` as one word appended to `bytes`; what is left of a secret that has no name (or
    /// is in an encoded form) is masked.
    static func append(_ value: String, redactor: Redactor, to bytes: inout ByteBuffer) {
        guard !value.isEmpty else { return bytes.append("''") }
        guard !redactor.isEmpty else { return appendQuoted(value, to: &bytes) }
        for piece in redactor.pieces(of: value) {
            switch piece {
            case .text(let text):
                appendQuoted(redactor.redact(text), to: &bytes)
            case .secret(let name):
                guard isIdentifier(name) else {
                    appendQuoted(Redactor.mask, to: &bytes)
                    continue
                }
                bytes.append("\"$")
                bytes.append(utf8: name)
                bytes.append(UInt8(ascii: "\""))
            }
        }
    }

    /// `first`, `separator` and `second` as one word, as `append` writes the three joined: a
    /// header (`Name: value`) is quoted from its parts, with no string made for it, when there
    /// is nothing to mask and neither part needs ANSI-C quoting (nearly always).
    static func append(_ first: String, _ separator: StaticString, _ second: String, redactor: Redactor, to bytes: inout ByteBuffer) {
        guard redactor.isEmpty else { return append(first + separator.description + second, redactor: redactor, to: &bytes) }
        let written = ByteText.withUTF8(first) { first in
            ByteText.withUTF8(second) { second in
                guard case let (.plain(firstQuotes), .plain(secondQuotes)) = (Self.quoting(first), Self.quoting(second)) else {
                    return false
                }
                // The separator is a literal without a quote or a control character.
                bytes.append(UInt8(ascii: "'"))
                appendInQuotes(first, hasQuotes: firstQuotes, to: &bytes)
                bytes.append(separator)
                appendInQuotes(second, hasQuotes: secondQuotes, to: &bytes)
                bytes.append(UInt8(ascii: "'"))
                return true
            }
        }
        if !written { appendQuoted(first + separator.description + second, to: &bytes) }
    }

    /// The same for a header whose name is a literal of the runner's own (`Host`): nothing in it
    /// to quote or scan.
    static func append(literal name: StaticString, _ separator: StaticString, _ value: String, redactor: Redactor, to bytes: inout ByteBuffer) {
        guard redactor.isEmpty else { return append(name.description + separator.description + value, redactor: redactor, to: &bytes) }
        let written = ByteText.withUTF8(value) { value in
            guard case .plain(let quotes) = Self.quoting(value) else { return false }
            bytes.append(UInt8(ascii: "'"))
            bytes.append(name)
            bytes.append(separator)
            appendInQuotes(value, hasQuotes: quotes, to: &bytes)
            bytes.append(UInt8(ascii: "'"))
            return true
        }
        if !written { appendQuoted(name.description + separator.description + value, to: &bytes) }
    }

    /// `'text'` (a `'` inside as `'\''`), or `$'text'` with escapes when a control character
    /// (or DEL) is in it.
    static func appendQuoted(_ text: String, to bytes: inout ByteBuffer) {
        ByteText.withUTF8(text) { appendQuoted($0, to: &bytes) }
    }

    /// The same for the bytes of a text.
    static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout ByteBuffer) {
        guard case .plain(let hasQuotes) = quoting(utf8) else { return appendANSIC(utf8, to: &bytes) }
        bytes.append(UInt8(ascii: "'"))
        appendInQuotes(utf8, hasQuotes: hasQuotes, to: &bytes)
        bytes.append(UInt8(ascii: "'"))
    }

    /// `bytes` quoted as the text they are, when they are ASCII without a NUL (text as it is,
    /// its own UTF-8); false, with nothing appended, otherwise.
    static func appendQuoted(asciiText raw: UnsafeRawBufferPointer, to bytes: inout ByteBuffer) -> Bool {
        let utf8 = raw.assumingMemoryBound(to: UInt8.self)
        var index = 0
        while index + 8 <= utf8.count {
            let word = ByteText.word(utf8, at: index)
            if ByteText.nonASCII(in: word) | ByteText.bytes(below: 1, in: word) != 0 { return false }
            index += 8
        }
        if index < utf8.count {
            let word = ByteText.lastWord(utf8, from: index)
            if ByteText.nonASCII(in: word) | ByteText.bytes(below: 1, in: word) != 0 { return false }
        }
        appendQuoted(utf8, to: &bytes)
        return true
    }

    /// How a text is quoted.
    private enum Quoting {
        /// In single quotes; a `'` in it is written `'\''`.
        case plain(hasQuotes: Bool)
        /// ANSI-C quoted: it holds a control character or DEL.
        case ansiC
    }

    /// Read eight bytes at a time: the usual text (a URL, a header, a JSON body) has nothing
    /// to escape, and is then copied in one piece.
    @inline(__always)
    private static func quoting(_ utf8: UnsafeBufferPointer<UInt8>) -> Quoting {
        var quotes: UInt64 = 0
        var index = 0
        while index + 8 <= utf8.count {
            let word = ByteText.word(utf8, at: index)
            if ByteText.bytes(below: 0x20, in: word) | ByteText.bytes(equalTo: 0x7F, in: word) != 0 { return .ansiC }
            quotes |= ByteText.bytes(equalTo: UInt8(ascii: "'"), in: word)
            index += 8
        }
        if index < utf8.count {
            let word = ByteText.lastWord(utf8, from: index)
            if ByteText.bytes(below: 0x20, in: word) | ByteText.bytes(equalTo: 0x7F, in: word) != 0 { return .ansiC }
            quotes |= ByteText.bytes(equalTo: UInt8(ascii: "'"), in: word)
        }
        return .plain(hasQuotes: quotes != 0)
    }

    /// `utf8` inside single quotes: as it is, or each `'` as `'\''`.
    @inline(__always)
    private static func appendInQuotes(_ utf8: UnsafeBufferPointer<UInt8>, hasQuotes: Bool, to bytes: inout ByteBuffer) {
        guard hasQuotes else { return bytes.append(utf8) }
        var start = 0
        for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "'") {
            bytes.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            bytes.append("'\\''")
            start = index + 1
        }
        bytes.append(UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    /// `$'text'`: backslash escapes for `\`, `'`, the usual controls, `\xHH` for the others.
    private static func appendANSIC(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout ByteBuffer) {
        bytes.append("$'")
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append("\\\\")
            case UInt8(ascii: "'"): bytes.append("\\'")
            case 0x0A: bytes.append("\\n")
            case 0x0D: bytes.append("\\r")
            case 0x09: bytes.append("\\t")
            case 0..<0x20, 0x7F: appendHexEscape(byte, to: &bytes)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "'"))
    }

    /// `\xHH`.
    static func appendHexEscape(_ byte: UInt8, to bytes: inout ByteBuffer) {
        let digits: StaticString = "0123456789abcdef"
        bytes.append("\\x")
        digits.withUTF8Buffer { hex in
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    /// A name bash expands as `$NAME`: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
