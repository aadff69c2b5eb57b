/// A minimal streaming XML 1.0 writer: indented elements, escaped attributes and text, and
/// characters XML 1.0 forbids replaced, so any bytes a server sent still give a valid document.
/// It writes bytes (no `String` per element), escaping on the UTF-8 itself.
struct XMLWriter: ~Copyable {
    typealias Attributes = [(name: String, value: String)]

    private(set) var buffer: ByteBuffer
    /// Elements open, around what this writer writes (a fragment's outer elements included).
    private var depth: Int

    /// A document, starting with the XML declaration.
    init() {
        buffer = ByteBuffer()
        buffer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        depth = 0
    }

    /// A fragment to be placed inside `depth` elements written elsewhere: no declaration, and
    /// indented as if those elements were open.
    init(fragmentDepth depth: Int) {
        buffer = ByteBuffer(capacity: 16)
        self.depth = depth
    }

    /// Writes a fragment (see `init(fragmentDepth:)`) at the end of `bytes`, which the writer
    /// owns meanwhile (moved, not copied).
    static func appending(to bytes: inout ByteBuffer, fragmentDepth depth: Int, _ body: (inout XMLWriter) -> Void) {
        var writer = XMLWriter(buffer: bytes, depth: depth)
        body(&writer)
        bytes = writer.buffer
    }

    private init(buffer: consuming ByteBuffer, depth: Int) {
        self.buffer = buffer
        self.depth = depth
    }

    /// Writes what has been written so far to `output` and empties the writer; elements stay
    /// open (a document written in pieces).
    mutating func drain(into output: inout FileOutput) {
        buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer($0)) }
        buffer.removeAll()
    }

    // MARK: Elements

    /// Opens `<name …>`; children follow until `end(name)`.
    mutating func start(_ name: String, _ attributes: Attributes = []) {
        openTag(name)
        for attribute in attributes { self.attribute(attribute.name, attribute.value) }
        closeTag()
    }

    /// Closes the innermost open element, `name`.
    mutating func end(_ name: String) {
        depth -= 1
        indent()
        buffer.append("</")
        buffer.append(utf8: name)
        buffer.append(">\n")
    }

    /// A leaf element: `<name …/>` or `<name …>text</name>`; the text is written verbatim
    /// (escaped, never re-indented), since whitespace in it is content.
    mutating func leaf(_ name: String, _ attributes: Attributes = [], text: String? = nil) {
        openTag(name)
        for attribute in attributes { self.attribute(attribute.name, attribute.value) }
        guard let text, !text.isEmpty else { return closeEmptyTag() }
        ByteText.withUTF8(text) { closeTag(text: $0, name: name) }
    }

    // The pieces of a start tag, for an element written attribute by attribute (a result's
    // test case: no array of attributes made for it).

    /// `<name`, indented; attributes follow, then one of the `close…` below.
    mutating func openTag(_ name: String) {
        indent()
        buffer.append(UInt8(ascii: "<"))
        buffer.append(utf8: name)
    }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        startAttribute(name)
        ByteText.withUTF8(value) { Self.escape($0, attribute: true, to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// ` name="…"`, the value written by `value` as it is (a number: nothing to escape).
    mutating func attribute(_ name: String, unescaped value: (inout ByteBuffer) -> Void) {
        startAttribute(name)
        value(&buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func startAttribute(_ name: String) {
        buffer.append(UInt8(ascii: " "))
        buffer.append(utf8: name)
        buffer.append("=\"")
    }

    /// Ends the start tag of an element with children.
    mutating func closeTag() {
        buffer.append(">\n")
        depth += 1
    }

    /// Ends an element without content: `/>`.
    mutating func closeEmptyTag() {
        buffer.append("/>\n")
    }

    /// Ends a leaf element with `text` (UTF-8, escaped) and its end tag; an empty text gives
    /// `/>`, as `leaf` does.
    mutating func closeTag(text: UnsafeBufferPointer<UInt8>, name: String) {
        guard !text.isEmpty else { return closeEmptyTag() }
        buffer.append(UInt8(ascii: ">"))
        Self.escape(text, attribute: false, to: &buffer)
        buffer.append("</")
        buffer.append(utf8: name)
        buffer.append(">\n")
    }

    /// As `closeTag(text:name:)`, with the text written, already escaped, by `escapedText`.
    mutating func closeTag(name: String, escapedText: (inout ByteBuffer) -> Void) {
        buffer.append(UInt8(ascii: ">"))
        let start = buffer.count
        escapedText(&buffer)
        guard buffer.count > start else {
            buffer.truncate(to: start - 1)
            return closeEmptyTag()
        }
        buffer.append("</")
        buffer.append(utf8: name)
        buffer.append(">\n")
    }

    private mutating func indent() {
        ByteText.spaces(depth * 2, to: &buffer)
    }

    // MARK: Escaping

    /// Escapes character data; `\r` becomes a reference because parsers normalise a literal one.
    static func escapeText(_ text: String) -> String {
        escaped(text, attribute: false)
    }

    /// Escapes an attribute value for double quotes; whitespace controls become references
    /// because attribute-value normalisation would turn them into spaces.
    static func escapeAttribute(_ text: String) -> String {
        escaped(text, attribute: true)
    }

    private static func escaped(_ text: String, attribute: Bool) -> String {
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        ByteText.withUTF8(text) { escape($0, attribute: attribute, to: &buffer) }
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Appends `utf8` (valid UTF-8, as every Swift string is) escaped for text or for an
    /// attribute value, characters XML does not allow replaced by U+FFFD. In valid UTF-8 those
    /// are the C0 controls other than tab, LF and CR, and U+FFFE and U+FFFF (EF BF BE, EF BF
    /// BF; surrogates cannot occur), so the work is on bytes; runs with nothing to escape, nearly
    /// all text, are copied whole.
    static func escape(_ utf8: UnsafeBufferPointer<UInt8>, attribute: Bool, to buffer: inout ByteBuffer) {
        var start = 0
        var index = 0
        while let at = nextSpecial(utf8, from: index, attribute: attribute) {
            let byte = utf8[at]
            if byte == 0xEF {
                // U+EFFF…U+FFFF start with EF: only U+FFFE and U+FFFF are not allowed.
                guard at + 2 < utf8.count, utf8[at + 1] == 0xBF, utf8[at + 2] & 0xFE == 0xBE else {
                    index = at + 1
                    continue
                }
                buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<at]))
                buffer.append("\u{FFFD}")
                index = at + 3
                start = index
                continue
            }
            buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<at]))
            switch byte {
            case UInt8(ascii: "&"): buffer.append("&amp;")
            case UInt8(ascii: "<"): buffer.append("&lt;")
            case UInt8(ascii: ">"): buffer.append("&gt;")
            case UInt8(ascii: "\""): buffer.append("&quot;")
            case UInt8(ascii: "'"): buffer.append("&apos;")
            case 0x09: buffer.append("&#9;")
            case 0x0A: buffer.append("&#10;")
            case 0x0D: buffer.append("&#13;")
            default: buffer.append("\u{FFFD}")  // the other C0 controls
            }
            index = at + 1
            start = index
        }
        buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// Where the first byte `escape` stops at is, from `index` on: eight bytes at a time, with
    /// exact tests (`ByteText.bytes`), then byte by byte for the last few.
    private static func nextSpecial(_ utf8: UnsafeBufferPointer<UInt8>, from index: Int, attribute: Bool) -> Int? {
        var index = index
        while index + 8 <= utf8.count {
            let word = ByteText.word(utf8, at: index)
            var marked = ByteText.bytes(below: 0x20, in: word)
            if !attribute {
                // Tab and LF are text as they are.
                marked &= ~(ByteText.bytes(equalTo: 0x09, in: word) | ByteText.bytes(equalTo: 0x0A, in: word))
            } else {
                marked |= ByteText.bytes(equalTo: UInt8(ascii: "\""), in: word) | ByteText.bytes(equalTo: UInt8(ascii: "'"), in: word)
            }
            marked |= ByteText.bytes(equalTo: UInt8(ascii: "&"), in: word) | ByteText.bytes(equalTo: 0xEF, in: word)
                // < and > differ in one bit (3C, 3E): one test for both.
                | ByteText.bytes(equalTo: UInt8(ascii: "<"), in: word & ~0x0202_0202_0202_0202)
            if marked != 0 { return index + ByteText.firstMarked(marked) }
            index += 8
        }
        // Every byte to stop at is below 0x40 but EF: a bit per byte below 0x40 says which.
        let specials = attribute ? attributeSpecials : textSpecials
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x40 ? specials >> UInt64(byte) & 1 != 0 : byte == 0xEF { return index }
            index += 1
        }
        return nil
    }

    /// The bytes below 0x40 `escape` stops at in text (a bit each): markup, CR, and the controls
    /// XML forbids (all but tab and LF).
    private static let textSpecials = specials(Array("&<>\r".utf8), keeping: [0x09, 0x0A])
    /// In an attribute value also quotes, tab and LF.
    private static let attributeSpecials = specials(Array("&<>\"'".utf8), keeping: [])

    private static func specials(_ markup: [UInt8], keeping allowed: Set<UInt8>) -> UInt64 {
        var bits: UInt64 = 0
        for byte in UInt8(0)..<0x40 where markup.contains(byte) || (byte < 0x20 && !allowed.contains(byte)) {
            bits |= 1 << UInt64(byte)
        }
        return bits
    }
}
