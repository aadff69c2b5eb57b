/// A minimal streaming XML 1.0 writer: indented elements, escaped attributes and text, and
/// characters XML 1.0 forbids replaced (`MarkupEscaper`), so any bytes a server sent still give
/// a valid document. It writes bytes (no `String` per element), escaping on the UTF-8 itself.
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
        ByteText.withUTF8(value) { MarkupEscaper.xmlAttribute.escape($0, to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// ` name="value"`, the value made of `pieces` (each handed to the closure it is given),
    /// each escaped as it is copied: the same bytes as the pieces joined, without joining them.
    mutating func attribute(_ name: String, pieces: ((String) -> Void) -> Void) {
        startAttribute(name)
        pieces { piece in ByteText.withUTF8(piece) { MarkupEscaper.xmlAttribute.escape($0, to: &buffer) } }
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
        MarkupEscaper.xmlText.escape(text, to: &buffer)
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
}
