/// A minimal streaming XML 1.0 writer: indented elements, escaped attributes and text, and
/// characters XML 1.0 forbids replaced, so any bytes a server sent still give a valid document.
struct XMLWriter {
    typealias Attributes = [(name: String, value: String)]

    private var output: String
    private var openElements: [String] = []
    /// Elements open around what this writer writes, written by another writer (a fragment).
    private let outerDepth: Int

    /// A document, starting with the XML declaration.
    init() {
        output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        outerDepth = 0
    }

    /// A fragment to be placed inside `depth` elements written elsewhere: no declaration, and
    /// indented as if those elements were open.
    init(fragmentDepth depth: Int) {
        output = ""
        outerDepth = depth
    }

    /// Opens `<name …>`; children follow until `end()`.
    mutating func start(_ name: String, _ attributes: Attributes = []) {
        output += indent + "<" + name + Self.render(attributes) + ">\n"
        openElements.append(name)
    }

    /// Closes the innermost open element.
    mutating func end() {
        guard let name = openElements.popLast() else { return }
        output += indent + "</" + name + ">\n"
    }

    /// A leaf element: `<name …/>` or `<name …>text</name>`; the text is written verbatim
    /// (escaped, never re-indented), since whitespace in it is content.
    mutating func leaf(_ name: String, _ attributes: Attributes = [], text: String? = nil) {
        let open = indent + "<" + name + Self.render(attributes)
        guard let text, !text.isEmpty else {
            output += open + "/>\n"
            return
        }
        output += open + ">" + Self.escapeText(text) + "</" + name + ">\n"
    }

    /// The document, with any element still open closed.
    mutating func finish() -> String {
        while !openElements.isEmpty { end() }
        return output
    }

    /// What has been written so far, handed over; elements stay open (a document in pieces).
    mutating func take() -> String {
        defer { output = "" }
        return output
    }

    private var indent: String { String(repeating: "  ", count: outerDepth + openElements.count) }

    private static func render(_ attributes: Attributes) -> String {
        attributes.map { " \($0.name)=\"\(escapeAttribute($0.value))\"" }.joined()
    }

    /// Escapes character data; `\r` becomes a reference because parsers normalise a literal one.
    static func escapeText(_ text: String) -> String {
        // Most text is plain ASCII with nothing to escape: hand it back untouched.
        let plain = text.utf8.allSatisfy { byte in
            byte < 0x80 && (byte >= 0x20 || byte == 0x09 || byte == 0x0A)
                && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
        }
        if plain { return text }
        return escape(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\r": "&#13;"
            default: nil
            }
        }
    }

    /// Escapes an attribute value for double quotes; whitespace controls become references
    /// because attribute-value normalisation would turn them into spaces.
    static func escapeAttribute(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            byte < 0x80 && byte >= 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
                && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
        }
        if plain { return text }
        return escape(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t": "&#9;"
            case "\n": "&#10;"
            case "\r": "&#13;"
            default: nil
            }
        }
    }

    /// XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    static let replacement: Unicode.Scalar = "\u{FFFD}"

    private static func escape(_ text: String, _ reference: (Unicode.Scalar) -> String?) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isAllowed(scalar) {
                out.append(replacement)
            } else if let entity = reference(scalar) {
                out.append(contentsOf: entity.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
