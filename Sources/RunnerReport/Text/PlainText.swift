/// Makes untrusted text (server data, certificate fields, plan strings) safe to show as one line.
enum PlainText {
    /// Control characters become visible escapes (`\n`, `\r`, `\t`, `\u{1B}`), so a hostile value
    /// can neither forge extra evidence lines nor drive a terminal with escape sequences.
    static func singleLine(_ text: String) -> String {
        // Printable ASCII, the usual case, needs nothing: checked on bytes, without decoding.
        if ByteText.withUTF8(text, isPrintableASCII) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    /// `singleLine(text)` appended to `bytes`; printable ASCII, the usual case, is copied as is.
    static func appendSingleLine(_ text: String, to bytes: inout ByteBuffer) {
        withSingleLine(text) { bytes.append($0) }
    }

    /// Calls `body` with the UTF-8 of `singleLine(text)`: printable ASCII, the usual case, is
    /// handed over as it is, with no string made or retained for it.
    static func withSingleLine(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let printable = ByteText.withUTF8(text) { utf8 in
            guard isPrintableASCII(utf8) else { return false }
            body(utf8)
            return true
        }
        if !printable { ByteText.withUTF8(singleLine(text), body) }
    }

    /// Whether every byte is printable ASCII (0x20–0x7E): eight at a time, then the rest.
    private static func isPrintableASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 8 <= utf8.count {
            if isUnprintable(ByteText.word(utf8, at: index)) { return false }
            index += 8
        }
        return index == utf8.count || !isUnprintable(ByteText.lastWord(utf8, from: index))
    }

    @inline(__always)
    private static func isUnprintable(_ word: UInt64) -> Bool {
        ByteText.bytes(below: 0x20, in: word) | ByteText.nonASCII(in: word) | ByteText.bytes(equalTo: 0x7F, in: word) != 0
    }

    /// C0 and C1 controls, DEL, the line/paragraph separators and the XML non-characters.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
