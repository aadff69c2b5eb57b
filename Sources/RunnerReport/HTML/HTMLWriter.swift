import RunnerResults

/// Markup written as bytes (no `String` per element, as the other reports): the report's own
/// markup as literals, every value from the run redacted and escaped on its way in.
struct HTMLWriter: ~Copyable {
    private(set) var bytes: ByteBuffer
    let redactor: Redactor

    init(redactor: Redactor, capacity: Int = 4096) {
        bytes = ByteBuffer(capacity: capacity)
        self.redactor = redactor
    }

    private init(bytes: consuming ByteBuffer, redactor: Redactor) {
        self.bytes = bytes
        self.redactor = redactor
    }

    /// Writes at the end of `bytes`, which the writer owns meanwhile (moved, not copied).
    static func appending(to bytes: inout ByteBuffer, redactor: Redactor, _ body: (inout HTMLWriter) -> Void) {
        var writer = HTMLWriter(bytes: bytes, redactor: redactor)
        body(&writer)
        bytes = writer.bytes
    }

    /// Writes what has been written so far to `output` and empties the writer.
    mutating func drain(into output: inout FileOutput) {
        bytes.withUnsafeBytes { output.write(UnsafeRawBufferPointer($0)) }
        bytes.removeAll()
    }

    /// Markup of the report's own, as it is.
    mutating func raw(_ markup: StaticString) {
        bytes.append(markup)
    }

    /// Text of the report's own (a number, a strategy's name, a timestamp): escaped all the
    /// same, so no caller has to know which of its words could hold markup.
    mutating func text(_ text: String) {
        ByteText.withUTF8(text) { MarkupEscaper.htmlText.escape($0, to: &bytes) }
    }

    /// A value from the run (a server's, a certificate's, the plan's) as text: redacted, its
    /// controls shown as escapes (as every report shows them, `PlainText`), escaped.
    mutating func value(_ value: String) {
        let shown = PlainText.singleLine(redactor.redact(value))
        ByteText.withUTF8(shown) { MarkupEscaper.htmlText.escape($0, to: &bytes) }
    }

    mutating func value(_ value: String?, or absent: StaticString) {
        guard let value else { return raw(absent) }
        self.value(value)
    }

    /// Text of the report's own, or already redacted, escaped for a double-quoted attribute
    /// value (the caller writes the quotes).
    mutating func attributeText(_ text: String) {
        ByteText.withUTF8(text) { MarkupEscaper.htmlAttribute.escape($0, to: &bytes) }
    }

    /// A value from the run for a double-quoted attribute value (the caller writes the quotes):
    /// redacted, its controls shown as escapes, escaped.
    mutating func attributeValue(_ value: String) {
        attributeText(PlainText.singleLine(redactor.redact(value)))
    }

    mutating func number(_ value: Int) {
        ByteText.decimal(value, to: &bytes)
    }

    /// `12.345` (three decimals, as the other reports).
    mutating func milliseconds(_ duration: Duration) {
        Format.milliseconds(duration, to: &bytes)
    }

    /// `r0-3-1`: the id of the result at `position`, what the matrix links to (a flow step's
    /// lane follows: `r0-4-0-1-0`).
    mutating func resultID(_ position: ResultPosition) {
        bytes.append(UInt8(ascii: "r"))
        number(position.suite)
        bytes.append(UInt8(ascii: "-"))
        number(position.scenario)
        bytes.append(UInt8(ascii: "-"))
        number(position.slot)
        for place in position.lane {
            bytes.append(UInt8(ascii: "-"))
            number(place)
        }
    }
}
