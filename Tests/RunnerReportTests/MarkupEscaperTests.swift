import PlanFixtures
import Testing

@testable import RunnerReport

/// The one escaper of the HTML and JUnit reports, in its four uses (HTML or XML, text or a
/// double-quoted attribute): each special, every control, multi-byte UTF-8, and each special
/// after a run long enough for the eight-bytes-at-a-time scan, at every offset of its word.
@Suite struct MarkupEscaperTests {
    private static let escapers: [MarkupEscaper] = [.htmlText, .htmlAttribute, .xmlText, .xmlAttribute]

    /// What each escaper makes of one character, the definition the tests compare against.
    private static func expected(_ scalar: Unicode.Scalar, by escaper: MarkupEscaper) -> String {
        let attribute = escaper.place == .attribute
        switch (escaper.language, scalar) {
        case (_, "&"): return "&amp;"
        case (_, "<"): return "&lt;"
        case (_, ">"): return "&gt;"
        case (_, "\"") where attribute: return "&quot;"
        case (.html, "'") where attribute: return "&#39;"
        case (.xml, "'") where attribute: return "&apos;"
        case (.html, "\u{0}"): return "\u{FFFD}"
        case (.html, _): return String(scalar)
        case (.xml, "\r"): return "&#13;"
        case (.xml, "\t") where attribute: return "&#9;"
        case (.xml, "\n") where attribute: return "&#10;"
        case (.xml, "\t"), (.xml, "\n"): return String(scalar)
        case (.xml, _) where scalar.value < 0x20 || scalar == "\u{FFFE}" || scalar == "\u{FFFF}": return "\u{FFFD}"
        case (.xml, _): return String(scalar)
        }
    }

    private static func expected(_ text: String, by escaper: MarkupEscaper) -> String {
        text.unicodeScalars.map { expected($0, by: escaper) }.joined()
    }

    @Test(arguments: [
        (MarkupEscaper.htmlText, "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        (.htmlText, "a & b", "a &amp; b"),
        (.htmlText, "&amp; stays visible", "&amp;amp; stays visible"),
        (.htmlText, #"say "hi" it's"#, #"say "hi" it's"#),
        (.htmlText, "nul\u{0}here\u{1}\t\r\n", "nul\u{FFFD}here\u{1}\t\r\n"),
        (.htmlText, "🚀 <b> ünïcode", "🚀 &lt;b&gt; ünïcode"),
        (.htmlText, "abcdefgh<ijklmnop>qrstuvw&xyz", "abcdefgh&lt;ijklmnop&gt;qrstuvw&amp;xyz"),
        (.htmlText, "\u{FFFE}\u{FFFF}", "\u{FFFE}\u{FFFF}"),
        (.htmlText, "", ""),
        (.htmlAttribute, #"x" onmouseover="alert(1)"#, "x&quot; onmouseover=&quot;alert(1)"),
        (.htmlAttribute, "it's <b>", "it&#39;s &lt;b&gt;"),
        (.htmlAttribute, "12345678\"12345678'", "12345678&quot;12345678&#39;"),
        (.htmlAttribute, "tab\tnl\n", "tab\tnl\n"),
        (.xmlText, #"a<b & "c" it's"#, #"a&lt;b &amp; "c" it's"#),
        (.xmlText, "tab\tnl\ncr\r\u{0}\u{1B}\u{7F}", "tab\tnl\ncr&#13;\u{FFFD}\u{FFFD}\u{7F}"),
        (.xmlText, "\u{EFFF}\u{FFEF}\u{FFFD}\u{FFFE}\u{FFFF}😀", "\u{EFFF}\u{FFEF}\u{FFFD}\u{FFFD}\u{FFFD}😀"),
        (.xmlAttribute, #"a<b & "c" it's"#, "a&lt;b &amp; &quot;c&quot; it&apos;s"),
        (.xmlAttribute, "tab\tnl\ncr\r\u{0}", "tab&#9;nl&#10;cr&#13;\u{FFFD}"),
        (.xmlAttribute, "", ""),
    ])
    func escapes(_ escaper: MarkupEscaper, _ input: String, _ expected: String) {
        #expect(escaper.escaped(input) == expected)
    }

    @Test("every control byte, alone and in a word, as each escaper's language says")
    func controls() {
        for escaper in Self.escapers {
            for value in Array(0..<0x20) + [0x7F] {
                let scalar = Unicode.Scalar(UInt8(value))
                let expected = Self.expected(scalar, by: escaper)
                #expect(escaper.escaped(String(scalar)) == expected, "\(escaper) \(value)")
                #expect(escaper.escaped("0123456789" + String(scalar) + "abc") == "0123456789" + expected + "abc", "\(escaper) \(value)")
            }
        }
    }

    @Test("multi-byte UTF-8 passes as it is, but the two noncharacters XML forbids, whose first bytes others share")
    func multiByte() {
        let scalars: [Unicode.Scalar] = [
            "é", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{EFFF}", "\u{F000}", "\u{FFBF}", "\u{FFEF}", "\u{FFFD}", "\u{FFFE}",
            "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}",
        ]
        for escaper in Self.escapers {
            for scalar in scalars {
                // In the word scan and in the tail, at the very end (where its three bytes end
                // the text) and before a special.
                for prefix in ["", "x", "12345", "1234567", "12345678"] {
                    for suffix in ["", "<"] {
                        let text = prefix + String(scalar) + suffix
                        #expect(
                            escaper.escaped(text) == prefix + Self.expected(scalar, by: escaper) + Self.expected(suffix, by: escaper),
                            "\(escaper) \(scalar.value) after \(prefix.utf8.count)")
                    }
                }
            }
        }
    }

    @Test("each special after 0 to 24 plain bytes (ASCII or not), so at each offset of a word and in the tail")
    func specialAtEachOffset() {
        let specials: [Unicode.Scalar] = ["&", "<", ">", "\"", "'", "\u{0}", "\t", "\n", "\r", "\u{1F}", "\u{FFFE}", "\u{FFFF}"]
        for escaper in Self.escapers {
            for plain in ["a", "é"] {
                for length in 0...24 {
                    let run = String(repeating: plain, count: length)
                    for special in specials {
                        let expected = run + Self.expected(special, by: escaper)
                        #expect(escaper.escaped(run + String(special)) == expected, "\(escaper) \(special.value) after \(length) \(plain)")
                        #expect(
                            escaper.escaped(run + String(special) + run) == expected + run,
                            "\(escaper) \(special.value) between \(length) \(plain)")
                    }
                }
            }
        }
    }

    @Test("random text of every kind of piece is escaped as one character at a time escapes it")
    func againstTheDefinition() {
        var random = SeededGenerator(seed: 0x4D41_524B)
        let pieces = ByteWritingTests.pieces
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            for escaper in Self.escapers {
                #expect(escaper.escaped(text) == Self.expected(text, by: escaper), "\(escaper) \(Array(text.unicodeScalars))")
            }
        }
    }

    /// Whatever the bytes, no `<`, `>`, `"`, `'` or NUL survives in an HTML attribute, and `&`
    /// only starts a reference.
    @Test func noMarkupCharacterSurvivesAtAnyPosition() {
        let specials: [Character] = ["<", ">", "&", "\"", "'", "\u{0}"]
        for length in 1...20 {
            for position in 0..<length {
                for special in specials {
                    var text = String(repeating: "a", count: length)
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: String(special))
                    let escaped = MarkupEscaper.htmlAttribute.escaped(text)
                    #expect(!escaped.contains { "<>\"'\u{0}".contains($0) }, "\(text.debugDescription) → \(escaped)")
                    let ampersands = escaped.components(separatedBy: "&").dropFirst()
                    #expect(ampersands.allSatisfy { $0.hasPrefix("amp;") || $0.hasPrefix("lt;") || $0.hasPrefix("gt;")
                        || $0.hasPrefix("quot;") || $0.hasPrefix("#39;") })
                }
            }
        }
    }
}
