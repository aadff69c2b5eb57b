/// Escapes text for an HTML document, so that nothing a server sent (a header, a body, a
/// certificate name) can become markup: in text (between tags) and in a double-quoted attribute
/// value, the only two places the HTML report puts a value. Never in a script, a style, a URL
/// or an unquoted attribute: the report writes values in none of those.
///
/// Text: `&`, `<` and `>` become references (`>` is not needed after all, but no reader has to
/// wonder). An attribute also `"` and `'` (`'` for a reader that quotes with it). In both, NUL
/// becomes U+FFFD, as a browser would read it, so a report never holds a raw NUL; other
/// controls are left to the caller (the report shows them as visible escapes, `PlainText`).
/// It works on the UTF-8 itself, eight bytes at a time: runs with nothing to escape, nearly all
/// text, are copied whole.
enum HTMLEscaper {
    /// `text` escaped for an element's content.
    static func text(_ text: String) -> String {
        escaped(text, attribute: false)
    }

    /// `text` escaped for a double-quoted attribute value.
    static func attribute(_ text: String) -> String {
        escaped(text, attribute: true)
    }

    private static func escaped(_ text: String, attribute: Bool) -> String {
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        ByteText.withUTF8(text) { escape($0, attribute: attribute, to: &buffer) }
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `utf8` escaped for text, or for a double-quoted attribute value, to `buffer`.
    static func escape(_ utf8: UnsafeBufferPointer<UInt8>, attribute: Bool, to buffer: inout ByteBuffer) {
        var start = 0
        var index = 0
        while let at = nextSpecial(utf8, from: index, attribute: attribute) {
            buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<at]))
            switch utf8[at] {
            case UInt8(ascii: "&"): buffer.append("&amp;")
            case UInt8(ascii: "<"): buffer.append("&lt;")
            case UInt8(ascii: ">"): buffer.append("&gt;")
            case UInt8(ascii: "\""): buffer.append("&quot;")
            case UInt8(ascii: "'"): buffer.append("&#39;")
            default: buffer.append("\u{FFFD}")  // NUL
            }
            index = at + 1
            start = index
        }
        buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// Where the first byte `escape` replaces is, from `index` on.
    private static func nextSpecial(_ utf8: UnsafeBufferPointer<UInt8>, from index: Int, attribute: Bool) -> Int? {
        var index = index
        while index + 8 <= utf8.count {
            let word = ByteText.word(utf8, at: index)
            var marked = ByteText.bytes(equalTo: UInt8(ascii: "&"), in: word) | ByteText.bytes(equalTo: 0, in: word)
                // < and > differ in one bit (3C, 3E): one test for both.
                | ByteText.bytes(equalTo: UInt8(ascii: "<"), in: word & ~0x0202_0202_0202_0202)
            if attribute {
                marked |= ByteText.bytes(equalTo: UInt8(ascii: "\""), in: word) | ByteText.bytes(equalTo: UInt8(ascii: "'"), in: word)
            }
            if marked != 0 { return index + ByteText.firstMarked(marked) }
            index += 8
        }
        while index < utf8.count {
            if isSpecial(utf8[index], attribute: attribute) { return index }
            index += 1
        }
        return nil
    }

    private static func isSpecial(_ byte: UInt8, attribute: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0: true
        case UInt8(ascii: "\""), UInt8(ascii: "'"): attribute
        default: false
        }
    }
}
