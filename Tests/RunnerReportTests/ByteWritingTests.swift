import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults

/// The byte-level writing behind the reports against the plain definitions it replaced: XML
/// escaping on UTF-8 against escaping scalar by scalar, the evidence written as bytes against
/// its lines, single-line escaping, numbers, and the buffer itself.
@Suite struct ByteWritingTests {
    /// XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
    private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Escaping as XMLWriter used to do it, one Unicode scalar at a time: the definition.
    static func referenceEscape(_ text: String, attribute: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isAllowedInXML(scalar) else {
                out.append("\u{FFFD}")
                continue
            }
            let entity: String? = switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\r": "&#13;"
            case "\"" where attribute: "&quot;"
            case "'" where attribute: "&apos;"
            case "\t" where attribute: "&#9;"
            case "\n" where attribute: "&#10;"
            default: nil
            }
            if let entity { out.append(contentsOf: entity.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Pieces that exercise every branch: markup, quotes, every C0 control, DEL and C1, the
    /// scalars around U+FFFE/U+FFFF that share their first bytes, emoji, and plain runs.
    static let pieces: [String] =
        (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
            "&", "<", ">", "\"", "'", "\u{7F}", "\u{85}", "\u{9F}", "é", "\u{D7FF}", "\u{E000}", "\u{EFFF}", "\u{F000}",
            "\u{FFEF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "😀", "👩‍💻", "]]>", "plain text ",
            "a", "0123456789abcdef",
        ]

    @Test("XML escaping on bytes gives what escaping scalar by scalar gives, for text and attributes")
    func xmlEscaping() {
        var random = SeededGenerator(seed: 0x584D4C)
        var strings = Self.pieces + ["", "nothing to escape at all, 48 bytes of plain text"]
        for _ in 0..<3_000 {
            strings.append((0..<Int.random(in: 1...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined())
        }
        for string in strings {
            #expect(MarkupEscaper.xmlText.escaped(string) == Self.referenceEscape(string, attribute: false), "\(Array(string.unicodeScalars))")
            #expect(MarkupEscaper.xmlAttribute.escaped(string) == Self.referenceEscape(string, attribute: true), "\(Array(string.unicodeScalars))")
        }
    }

    @Test("an element written attribute by attribute is the element written from an attribute list")
    func elementsInPieces() {
        var pieces = XMLWriter(fragmentDepth: 1)
        pieces.openTag("case")
        pieces.attribute("name", "a<b>\"c\"")
        pieces.attribute("time") { Format.seconds(1.5, to: &$0) }
        pieces.closeTag()
        ByteText.withUTF8("out\r\n\u{0}") { pieces.openTag("out"); pieces.closeTag(text: $0, name: "out") }
        pieces.openTag("empty")
        pieces.closeTag(text: UnsafeBufferPointer(start: nil, count: 0), name: "empty")
        pieces.end("case")

        var whole = XMLWriter(fragmentDepth: 1)
        whole.start("case", [("name", "a<b>\"c\""), ("time", "1.500")])
        whole.leaf("out", text: "out\r\n\u{0}")
        whole.leaf("empty", text: "")
        whole.end("case")
        #expect(pieces.buffer.array == whole.buffer.array)
        #expect(String(decoding: whole.buffer.array, as: UTF8.self) == """
              <case name="a&lt;b&gt;&quot;c&quot;" time="1.500">
                <out>out&#13;
            \u{FFFD}</out>
                <empty/>
              </case>

            """)
    }

    @Test("the evidence written as bytes is its lines, each with a newline, secrets masked across values")
    func evidenceBytes() {
        let secretAcrossValues = Redactor(secrets: ["203.0.113.11:80", Fixture.secret, Fixture.markupSecret])
        for redactor in [Fixture.redactor, Redactor(secrets: []), secretAcrossValues] {
            for result in Fixture.run().suites.flatMap(\.results) {
                var bytes = ByteBuffer(capacity: 16)
                bytes.append("before|")
                EvidenceText.write(result, redactor: redactor, to: &bytes)
                let lines = EvidenceText.lines(for: result, redactor: redactor)
                #expect(String(decoding: bytes.array, as: UTF8.self) == "before|" + lines.map { $0 + "\n" }.joined())
            }
        }
        let lines = EvidenceText.lines(for: Fixture.failed, redactor: secretAcrossValues)
        #expect(lines.contains("  connected: ***"))
    }

    @Test("the evidence escaped for <system-out> as it is written is the escaped text of its lines")
    func evidenceXMLText() {
        for redactor in [Fixture.redactor, Redactor(secrets: [])] {
            for result in Fixture.run().suites.flatMap(\.results) {
                var bytes = ByteBuffer(capacity: 16)
                bytes.append("<out>")
                EvidenceText.writeXMLText(result, redactor: redactor, to: &bytes)
                let text = EvidenceText.lines(for: result, redactor: redactor)
                    .map { $0 + "\n" }.joined()
                #expect(String(decoding: bytes.array, as: UTF8.self) == "<out>" + MarkupEscaper.xmlText.escaped(text))
            }
        }
    }

    @Test("single lines on bytes are the single lines of strings")
    func singleLines() {
        for piece in Self.pieces + ["plain", "", "tab\there", "🚀 ok"] {
            var bytes = ByteBuffer()
            PlainText.appendSingleLine(piece, to: &bytes)
            #expect(String(decoding: bytes.array, as: UTF8.self) == PlainText.singleLine(piece))
        }
    }

    /// Texts of every length up to 20 with one byte of each kind the scans look for at every
    /// place: the last bytes, read as one word (`ByteText.lastWord`), are judged as a byte at a
    /// time would judge them, whether the text is shorter than a word or not.
    @Test("scans a word at a time judge a text's last bytes as a byte at a time would")
    func lastBytesAreScannedLikeTheRest() {
        for length in 0...20 {
            for place in 0..<max(length, 1) {
                for special: UInt8 in [0x00, 0x01, 0x1F, 0x27, 0x7F, 0xC3, UInt8(ascii: "a")] where length > 0 || special == 0x61 {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    if length > 0 { text[place] = special }
                    let control = text.contains { $0 < 0x20 || $0 == 0x7F }
                    var quoted = ByteBuffer()
                    text.withUnsafeBufferPointer { ShellWord.appendQuoted($0, to: &quoted) }
                    let word = String(decoding: quoted.array, as: UTF8.self)
                    let expected = control ? nil : "'" + String(decoding: text, as: UTF8.self).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
                    if let expected { #expect(word == expected, "\(text)") } else { #expect(word.hasPrefix("$'"), "\(text)") }

                    var ascii = ByteBuffer()
                    let isASCIIText = text.withUnsafeBytes { ShellWord.appendQuoted(asciiText: $0, to: &ascii) }
                    #expect(isASCIIText == !text.contains { $0 == 0 || $0 >= 0x80 }, "\(text)")

                    guard special != 0xC3 else { continue }  // not UTF-8 on its own
                    let string = String(decoding: text, as: UTF8.self)
                    var line = ByteBuffer()
                    PlainText.appendSingleLine(string, to: &line)
                    #expect(String(decoding: line.array, as: UTF8.self) == PlainText.singleLine(string), "\(text)")
                    #expect((PlainText.singleLine(string) == string) == !text.contains { $0 < 0x20 || $0 == 0x7F }, "\(text)")
                }
            }
        }
    }

    @Test("numbers on bytes: every integer width's extremes, padding, fixed decimals")
    func numbers() {
        var bytes = ByteBuffer(capacity: 16)
        for value in [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min] {
            bytes.removeAll()
            ByteText.decimal(value, to: &bytes)
            #expect(String(decoding: bytes.array, as: UTF8.self) == String(value))
        }
        bytes.removeAll()
        ByteText.decimal(UInt64.max, to: &bytes)
        #expect(String(decoding: bytes.array, as: UTF8.self) == String(UInt64.max))
        for (value, width, expected) in [(0, 3, "000"), (7, 3, "007"), (42, 3, "042"), (123, 3, "123"), (1234, 3, "1234")] {
            bytes.removeAll()
            ByteText.padded(value, width: width, to: &bytes)
            #expect(String(decoding: bytes.array, as: UTF8.self) == expected)
        }
        for value in [0.0, 0.0004, 0.0005, 1.5, 12.3456, 3600, -1, .nan, .infinity, 1e20] {
            #expect(Format.fixed(value, decimals: 3) == String(format: "%.3f", min(max(value.isFinite ? value : 0, 0), 1e12)), "\(value)")
        }
    }

    @Test("the buffer grows across its capacity and keeps every byte")
    func bufferGrowth() {
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<200 {
            let piece = (0..<(round % 37)).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            piece.withUnsafeBufferPointer { buffer.append($0) }
            buffer.append(UInt8(truncatingIfNeeded: round))
            buffer.append(repeating: 0x20, count: round % 5)
            expected += piece + [UInt8(truncatingIfNeeded: round)] + [UInt8](repeating: 0x20, count: round % 5)
        }
        #expect(buffer.array == expected)
        #expect(buffer.count == expected.count)
        buffer.truncate(to: 10)
        #expect(buffer.array == Array(expected[..<10]))
        buffer.removeAll()
        #expect(buffer.count == 0)
    }
}
