/// Escapes text for HTML or XML, in element content or in a double-quoted attribute value: the
/// one funnel every value the HTML and JUnit reports write into markup goes through, so that
/// nothing a server sent (a header, a body, a certificate name) can become markup, and a JUnit
/// document stays well-formed whatever the bytes.
///
/// Both languages make `&`, `<` and `>` references (`>` is not needed in either, but no reader
/// has to wonder), and in an attribute also `"` and `'`. They differ in two things:
/// - Controls. HTML: NUL becomes U+FFFD, as a browser would read it; the other controls are the
///   caller's (the reports show them as visible escapes, `PlainText`). XML 1.0: what it forbids
///   (the C0 controls but tab, LF and CR; U+FFFE and U+FFFF) becomes U+FFFD; CR is a reference,
///   as parsers normalise a literal one, and in an attribute so are tab and LF, which
///   attribute-value normalisation would turn into spaces.
/// - The apostrophe: `&#39;` in HTML (`&apos;` is not HTML 4's), `&apos;` in XML.
///
/// It works on the UTF-8 itself (valid, as every Swift string is), eight bytes at a time: runs
/// with nothing to escape, nearly all text, are copied whole; nothing is allocated per character.
struct MarkupEscaper: Sendable {
    /// Which markup the text goes into.
    enum Language: Sendable {
        case html
        case xml
    }

    /// Where in the markup the text goes.
    enum Place: Sendable {
        /// An element's content.
        case text
        /// A double-quoted attribute value (the caller writes the quotes).
        case attribute
    }

    let language: Language
    let place: Place

    // Made where used (two bytes), not kept in globals: no lazy-initialisation check per value.
    static var htmlText: MarkupEscaper { MarkupEscaper(language: .html, place: .text) }
    static var htmlAttribute: MarkupEscaper { MarkupEscaper(language: .html, place: .attribute) }
    static var xmlText: MarkupEscaper { MarkupEscaper(language: .xml, place: .text) }
    static var xmlAttribute: MarkupEscaper { MarkupEscaper(language: .xml, place: .attribute) }

    /// `text` escaped.
    func escaped(_ text: String) -> String {
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        ByteText.withUTF8(text) { escape($0, to: &buffer) }
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `utf8` escaped to `buffer`.
    func escape(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        var start = 0
        var index = 0
        while let at = nextStop(utf8, from: index) {
            let byte = utf8[at]
            if byte == 0xEF {
                // U+EFFF…U+FFFF start with EF: only U+FFFE and U+FFFF (EF BF BE, EF BF BF) are
                // not XML characters (surrogates cannot occur in valid UTF-8).
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
            buffer.append(replacement(for: byte))
            index = at + 1
            start = index
        }
        buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// What a byte the scan stopped at (but EF) becomes. Tab, LF and CR are only stopped at in
    /// XML, quotes only in an attribute (`nextStop`).
    private func replacement(for byte: UInt8) -> StaticString {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"):
            switch language {
            case .html: "&#39;"
            case .xml: "&apos;"
            }
        case 0x09: "&#9;"
        case 0x0A: "&#10;"
        case 0x0D: "&#13;"
        // Every other byte stopped at is a control the language does not keep: NUL in HTML,
        // those XML 1.0 forbids.
        default: "\u{FFFD}"
        }
    }

    /// Where the first byte `escape` stops at is, from `index` on: eight bytes at a time, with
    /// exact tests (`ByteText.bytes`), then byte by byte for the last few.
    private func nextStop(_ utf8: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var index = index
        while index + 8 <= utf8.count {
            let word = ByteText.word(utf8, at: index)
            var marked = ByteText.bytes(equalTo: UInt8(ascii: "&"), in: word)
                // < and > differ in one bit (3C, 3E): one test for both.
                | ByteText.bytes(equalTo: UInt8(ascii: "<"), in: word & ~0x0202_0202_0202_0202)
            switch language {
            case .html:
                marked |= ByteText.bytes(equalTo: 0, in: word)
            case .xml:
                var controls = ByteText.bytes(below: 0x20, in: word)
                if place == .text {
                    // Tab and LF are text as they are.
                    controls &= ~(ByteText.bytes(equalTo: 0x09, in: word) | ByteText.bytes(equalTo: 0x0A, in: word))
                }
                marked |= controls | ByteText.bytes(equalTo: 0xEF, in: word)
            }
            if place == .attribute {
                marked |= ByteText.bytes(equalTo: UInt8(ascii: "\""), in: word) | ByteText.bytes(equalTo: UInt8(ascii: "'"), in: word)
            }
            if marked != 0 { return index + ByteText.firstMarked(marked) }
            index += 8
        }
        // Every byte to stop at is below 0x40 but XML's EF: a bit per byte below 0x40 says which.
        let specials = lowStops
        let stopsAtEF = language == .xml
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x40 ? specials >> UInt64(byte) & 1 != 0 : stopsAtEF && byte == 0xEF { return index }
            index += 1
        }
        return nil
    }

    /// The bytes below 0x40 `escape` stops at, a bit each: what the word test above marks.
    private var lowStops: UInt64 {
        let markup: UInt64 = 1 << 0x26 | 1 << 0x3C | 1 << 0x3E  // & < >
        let quotes: UInt64 = 1 << 0x22 | 1 << 0x27  // " '
        let controls: UInt64 = 0xFFFF_FFFF  // the C0 controls, 00 to 1F
        let tabAndLF: UInt64 = 1 << 0x09 | 1 << 0x0A
        switch (language, place) {
        case (.html, .text): return markup | 1
        case (.html, .attribute): return markup | 1 | quotes
        case (.xml, .text): return markup | controls & ~tabAndLF
        case (.xml, .attribute): return markup | controls | quotes
        }
    }
}
