import Testing

@testable import RunnerReport

/// The HTML report's escaper, in its two contexts: element text and double-quoted attributes.
@Suite struct HTMLEscaperTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("a & b", "a &amp; b"),
        ("&amp; stays visible", "&amp;amp; stays visible"),
        (#"say "hi" it's"#, #"say "hi" it's"#),
        ("nul\u{0}here", "nul\u{FFFD}here"),
        ("🚀 <b> ünïcode", "🚀 &lt;b&gt; ünïcode"),
        // Long enough for the eight-bytes-at-a-time scan, the special at each offset of a word.
        ("abcdefgh<ijklmnop>qrstuvw&xyz", "abcdefgh&lt;ijklmnop&gt;qrstuvw&amp;xyz"),
        ("", ""),
    ])
    func text(_ input: String, _ expected: String) {
        #expect(HTMLEscaper.text(input) == expected)
    }

    @Test(arguments: [
        (#"x" onmouseover="alert(1)"#, "x&quot; onmouseover=&quot;alert(1)"),
        ("it's <b>", "it&#39;s &lt;b&gt;"),
        ("a&b", "a&amp;b"),
        ("12345678\"12345678'", "12345678&quot;12345678&#39;"),
    ])
    func attribute(_ input: String, _ expected: String) {
        #expect(HTMLEscaper.attribute(input) == expected)
    }

    /// Whatever the bytes, no `<`, `>`, `"`, `'` or NUL survives, and `&` only starts a reference.
    @Test func noMarkupCharacterSurvivesAtAnyPosition() {
        let specials: [Character] = ["<", ">", "&", "\"", "'", "\u{0}"]
        for length in 1...20 {
            for position in 0..<length {
                for special in specials {
                    var text = String(repeating: "a", count: length)
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: String(special))
                    let escaped = HTMLEscaper.attribute(text)
                    #expect(!escaped.contains { "<>\"'\u{0}".contains($0) }, "\(text.debugDescription) → \(escaped)")
                    let ampersands = escaped.components(separatedBy: "&").dropFirst()
                    #expect(ampersands.allSatisfy { $0.hasPrefix("amp;") || $0.hasPrefix("lt;") || $0.hasPrefix("gt;")
                        || $0.hasPrefix("quot;") || $0.hasPrefix("#39;") })
                }
            }
        }
    }
}
