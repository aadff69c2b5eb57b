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

    /// `'text'` (a `'` inside as `'\''`), or `$'text'` with escapes when a control character
    /// (or DEL) is in it.
    static func appendQuoted(_ text: String, to bytes: inout ByteBuffer) {
        ByteText.withUTF8(text) { utf8 in
            guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                bytes.append(UInt8(ascii: "'"))
                var start = 0
                for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "'") {
                    bytes.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    bytes.append("'\\''")
                    start = index + 1
                }
                bytes.append(UnsafeBufferPointer(rebasing: utf8[start...]))
                bytes.append(UInt8(ascii: "'"))
                return
            }
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
