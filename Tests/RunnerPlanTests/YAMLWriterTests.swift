import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// `YAMLWriter`'s output read back through the plan reader (libyaml): every scalar returns
/// byte for byte, a string as a string, a plain scalar as written.
@Suite("YAML writer")
struct YAMLWriterTests {
    /// Strings that a careless writer would turn into another text or another kind.
    static let hostileStrings: [String] = [
        "10", "-1", "+1", "0x1F", "0o17", "1e3", ".5", ".inf", "-.inf", ".nan", "1_000", "1:30", "2001-12-14",
        "true", "false", "True", "TRUE", "yes", "No", "on", "OFF", "y", "n", "Y",
        "null", "Null", "NULL", "~", "", " ", " lead", "trail ", "two  spaces",
        "a: b", "a:", "a #b", "a#b", "#x", "- x", "-", "--", "---", "...", "? x", "?x", ":x", "=", "<<",
        "[x]", "{x}", "x]", "a, b", "*x", "&x", "!x", "!!str", "%x", "@x", "`x", "'x", "\"x", "|", ">", "a\"b",
        "x\r\ny", "x\ny", "\n", "x\n", "\r", "a\tb", "\t", "\0", "a\0b", "\u{1B}[31m", "\u{7F}", "\u{85}",
        "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}x", "\u{FFFE}", "\u{FFFF}", "caf\u{E9}", "cafe\u{301}", "中文",
        "😀", "👩‍👩‍👧", "${secret:A_B}", "$${x}", "${env:X} and ${y}", "back\\slash", "\\n",
        "https://api.example.com/v1/items?id=3&x=y", "runner/1 (prod probe)", "application/json",
        "Bearer ${secret:API_TOKEN}", "203.0.113.10", "2001:db8::10", "api.example.com",
        String(repeating: "long text ", count: 500),
        String(repeating: "x\r\n", count: 2000) + " ",
    ]

    @Test("hostile strings read back as the same strings, as values, keys and items")
    func hostileStringsRoundTrip() throws {
        var keys = Set<String>()
        var entries: [YAMLEntry] = []
        for (index, text) in Self.hostileStrings.enumerated() {
            entries.append(YAMLEntry("value \(index)", .string(text)))
            if keys.insert(text).inserted { entries.append(YAMLEntry(text, .integer(index))) }
        }
        let items = Self.hostileStrings.map { YAMLItem(.string($0)) }
        entries.append(YAMLEntry("block items", .sequence(items)))
        entries.append(YAMLEntry("flow items", .sequence(items, style: .flow)))
        for chunk in stride(from: 0, to: Self.hostileStrings.count, by: 3) {
            let members = Self.hostileStrings[chunk..<min(chunk + 3, Self.hostileStrings.count)]
            entries.append(YAMLEntry("flow \(chunk)", .sequence(members.map { YAMLItem(.string($0)) }, style: .flow)))
            let mapping = members.enumerated().map { YAMLEntry("k\($0.offset)" + $0.element, .string($0.element)) }
            entries.append(YAMLEntry("map \(chunk)", .mapping(mapping, style: .flow)))
        }
        try expectRoundTrip(entries)
    }

    @Test("strings that are safe plain are written plain, the others double-quoted")
    func plainOrQuoted() {
        let written = YAMLWriter.document([
            YAMLEntry("url", .string("https://api.example.com/v1?id=3&x=y")),
            YAMLEntry("secret", .string("${secret:A_B}")),
            YAMLEntry("agent", .string("runner/1 (prod probe)")),
            YAMLEntry("number", .string("10")),
            YAMLEntry("word", .string("yes")),
            YAMLEntry("crlf", .string("a\r\nb\u{85}\u{1}\u{7F}\u{9F}\u{2028}\u{FEFF}\0\t\"\\é")),
            YAMLEntry("status", .plain("2xx")),
            YAMLEntry("count", .plain("10")),
            YAMLEntry("unsafe", .plain("a: b")),
            YAMLEntry("absent", .plain("")),
            YAMLEntry("n", .integer(-3)),
            YAMLEntry("flag", .boolean(false)),
            YAMLEntry("flow", .sequence([YAMLItem(.plain("203.0.113.10")), YAMLItem(.string("2001:db8::10"))], style: .flow)),
            YAMLEntry("auth", .mapping([YAMLEntry("scheme", .string("x")), YAMLEntry("secret", .string("${secret:S}"))], style: .flow)),
        ])
        #expect(written == #"""
            url: https://api.example.com/v1?id=3&x=y
            secret: ${secret:A_B}
            agent: runner/1 (prod probe)
            number: "10"
            word: "yes"
            crlf: "a\r\nb\u0085\x01\x7F\u009F\u2028\uFEFF\0\t\"\\é"
            status: 2xx
            count: 10
            unsafe: "a: b"
            absent:
            "n": -3
            flag: false
            flow: [203.0.113.10, "2001:db8::10"]
            auth: {scheme: x, secret: "${secret:S}"}

            """#)
    }

    @Test("block layout: nested mappings and sequences, items of mappings, comments, empty collections")
    func blockLayout() throws {
        let entries = [
            YAMLEntry("version", .integer(1), comments: ["generated"]),
            YAMLEntry("scenarios", .sequence([
                YAMLItem(.mapping([
                    YAMLEntry("name", .string("first"), comments: ["about the name"]),
                    YAMLEntry("request", .mapping([YAMLEntry("url", .string("https://a.example/"))])),
                ]), comments: ["3 identical requests in the capture: entries 2, 5, 9", "line\nbreak\r\u{2028}here"]),
                YAMLItem(.sequence([YAMLItem(.integer(1)), YAMLItem(.mapping([YAMLEntry("a", .plain("b"))]))])),
                YAMLItem(.mapping([])),
                YAMLItem(.sequence([])),
                YAMLItem(.plain("")),
            ]), comments: ["ends: \u{1B}]0;x\u{7}"]),
            YAMLEntry("empty", .mapping([], style: .flow)),
        ]
        let written = YAMLWriter.document(entries, comments: ["top", ""])
        #expect(written == """
            # top
            #
            # generated
            version: 1
            # ends:  ]0;x 
            scenarios:
              # 3 identical requests in the capture: entries 2, 5, 9
              # line break  here
              # about the name
              - name: first
                request:
                  url: https://a.example/
              - - 1
                - a: b
              - {}
              - []
              -
            empty: {}

            """)
        try expectRoundTrip(entries)
        #expect(YAMLWriter.document([]) == "{}\n")
    }

    @Test("a key longer than libyaml's implicit key limit is written explicitly")
    func longKeys() throws {
        let long = String(repeating: "k", count: 3000)
        let quoted = String(repeating: "\n", count: 600)
        try expectRoundTrip([
            YAMLEntry(long, .string("v")),
            YAMLEntry(quoted, .mapping([YAMLEntry(long, .sequence([YAMLItem(.integer(1))]))])),
            YAMLEntry("items", .sequence([YAMLItem(.mapping([YAMLEntry(long, .plain("x")), YAMLEntry("b", .plain("y"))]))])),
        ])
    }

    @Test("a flow collection that would not fit on a line, or holds a collection or a comment, is written as a block")
    func flowFallsBackToBlock() throws {
        let wide = (0..<30).map { YAMLItem(.string("item\($0)")) }
        let written = YAMLWriter.document([
            YAMLEntry("wide", .sequence(wide, style: .flow)),
            YAMLEntry("nested", .sequence([YAMLItem(.sequence([]))], style: .flow)),
            YAMLEntry("commented", .mapping([YAMLEntry("a", .integer(1), comments: ["why"])], style: .flow)),
            YAMLEntry("empty plain", .sequence([YAMLItem(.plain(""))], style: .flow)),
        ])
        #expect(written.contains("wide:\n  - item0\n"))
        #expect(written.contains("nested:\n  - []\n"))
        #expect(written.contains("commented:\n  # why\n  a: 1\n"))
        #expect(written.contains("empty plain:\n  -\n"))
    }

    @Test("a plan written by the writer loads, its bodies and headers as given")
    func writtenPlanLoads() throws {
        let body = "user=probe&note=a: b #1\r\nline \"two\"\t\r\n"
        let headers = [
            Header(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            Header(name: "X-Trace", value: "a: b, [c] #d"),
            Header(name: "User-Agent", value: "runner/1 (prod probe)"),
        ]
        func scenario(_ name: String, method: String, body: String?) -> YAMLValue {
            var request = [
                YAMLEntry("method", .string(method)),
                YAMLEntry("url", .string("https://api.example.com/v1/login?x=1&y=2")),
                YAMLEntry("headers", .mapping(headers.map { YAMLEntry($0.name, .string($0.value)) }, style: .flow)),
            ]
            if let body { request.append(YAMLEntry("body", .string(body))) }
            return .mapping([
                YAMLEntry("name", .string(name)),
                YAMLEntry("domains", .string("shipped")),
                YAMLEntry("request", .mapping(request)),
                YAMLEntry("expect", .mapping([YAMLEntry("status", .plain("2xx"))])),
            ])
        }
        let plan = YAMLWriter.document([
            YAMLEntry("version", .integer(1)),
            YAMLEntry("domains", .mapping([
                YAMLEntry("shipped", .mapping([
                    YAMLEntry("static", .mapping([
                        YAMLEntry("api.example.com", .sequence([YAMLItem(.plain("203.0.113.10")), YAMLItem(.string("2001:db8::10"))], style: .flow)),
                    ])),
                ]), comments: ["the IPs the capture saw"]),
            ])),
            YAMLEntry("scenarios", .sequence([
                YAMLItem(scenario("login", method: "POST", body: body), comments: ["3 identical requests in the capture: entries 2, 5, 9"]),
                YAMLItem(scenario("status: \"ok\"", method: "GET", body: nil), comments: ["from https://api.example.com/x\nversion: 2"]),
            ])),
        ], comments: ["generated by runner init --har"])
        let workspace = try PlanWorkspace()
        let loaded = try PlanLoader.load(path: try workspace.write("plan.yaml", plan), environment: [:])
        #expect(loaded.scenarios.map(\.name) == ["login", "status: \"ok\""])
        #expect(loaded.scenarios.first?.request.body == .bytes(Data(body.utf8)))
        #expect(loaded.scenarios.last?.request.body == nil)
        #expect(loaded.scenarios.map(\.request.headers) == [headers, headers])
        #expect(loaded.scenarios.map(\.request.method) == ["POST", "GET"])
        #expect(plan.contains("\n  # from https://api.example.com/x version: 2\n  - name: "))
    }

    @Test("random hostile strings round-trip as keys, values and items")
    func randomStringsRoundTrip() throws {
        var generator = SeededGenerator(seed: SeededGenerator.seed(0x59A3_1E27, for: "randomStringsRoundTrip"))
        for _ in 0..<300 {
            var keys = Set<String>()
            var entries: [YAMLEntry] = []
            var items: [YAMLItem] = []
            for _ in 0..<8 {
                let key = Self.randomString(using: &generator)
                let value = Self.randomString(using: &generator)
                guard keys.insert(key).inserted else { continue }
                let written: YAMLValue = Bool.random(using: &generator) ? .string(value) : .plain(value)
                entries.append(YAMLEntry(key, written, comments: [Self.randomString(using: &generator)]))
                items.append(YAMLItem(.string(value), comments: [key]))
            }
            entries.append(YAMLEntry("\u{0}items", .sequence(items)))
            entries.append(YAMLEntry("\u{0}flow", .sequence(items.map { YAMLItem($0.value) }, style: .flow)))
            entries.append(YAMLEntry("\u{0}map", .mapping(entries.prefix(3).map { YAMLEntry($0.key, $0.value) }, style: .flow)))
            try expectRoundTrip(entries)
        }
    }

    /// Pieces of text that mean something to YAML, joined at random.
    static let hostilePieces: [String] = [
        "a", "Z", "0", "9", "x", " ", "  ", ":", ": ", "#", " #", "\"", "'", "\\", "{", "}", "[", "]", ",", "&", "*",
        "!", "|", ">", "%", "@", "`", "-", "- ", "?", ".", "~", "$", "${", "${secret:X}", "/", "=", "<<", "\t", "\n",
        "\r", "\r\n", "\0", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}",
        "\u{FFFE}", "\u{301}", "é", "中", "😀", "true", "null", "yes", "10", "0x1F", ".inf", "---", "...",
    ]

    static func randomString(using generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 0...100, using: &generator) < 3
            ? Int.random(in: 100...400, using: &generator) : Int.random(in: 0...6, using: &generator)
        var text = ""
        for _ in 0..<length {
            text += hostilePieces[Int.random(in: 0..<hostilePieces.count, using: &generator)]
        }
        return text
    }

    // MARK: Reading back

    /// Writes `entries`, parses the document with the plan reader, and checks it holds them.
    func expectRoundTrip(_ entries: [YAMLEntry], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let written = YAMLWriter.document(entries)
        let document: YAMLDocument
        do {
            document = try YAMLParser(source: SourceText(file: "written.yaml", bytes: Array(written.utf8))).parse()
        } catch {
            Issue.record("the written document does not parse: \(error)\n\(written)", sourceLocation: sourceLocation)
            return
        }
        #expect(document.errors.isEmpty, "\(document.errors)\n\(written)", sourceLocation: sourceLocation)
        guard let root = document.root else {
            Issue.record("no document written", sourceLocation: sourceLocation)
            return
        }
        expectMatch(.mapping(entries), root, path: "", written: written, sourceLocation: sourceLocation)
    }

    func expectMatch(_ value: YAMLValue, _ node: YAMLNode, path: String, written: String, sourceLocation: Testing.SourceLocation) {
        func fail(_ problem: String) {
            Issue.record("\(path): \(problem)\n\(written.prefix(4000))", sourceLocation: sourceLocation)
        }
        switch (value, node.content) {
        case (.string(let expected), .scalar(let text, let style)):
            if Array(text.utf8) != Array(expected.utf8) { fail("read back \(text.debugDescription), wrote \(expected.debugDescription)") }
            if !Self.readsAsString(text, style) { fail("\(expected.debugDescription) reads back plain, not as a string") }
        case (.plain(let expected), .scalar(let text, let style)):
            if Array(text.utf8) != Array(expected.utf8) { fail("read back \(text.debugDescription), wrote \(expected.debugDescription)") }
            // Quoted only when it could not be plain (where it stands, block or flow).
            if style != .plain, YAMLWriter.isPlainAsGiven(expected, inFlow: true) { fail("quoted, though plain is safe") }
        case (.integer(let expected), .scalar(let text, let style)):
            if text != String(expected) || style != .plain { fail("read back \(text.debugDescription) for \(expected)") }
        case (.boolean(let expected), .scalar(let text, let style)):
            if text != String(expected) || style != .plain { fail("read back \(text.debugDescription) for \(expected)") }
        case (.sequence(let items, _), .sequence(let nodes)):
            guard items.count == nodes.count else { return fail("\(nodes.count) items, wrote \(items.count)") }
            for (index, item) in items.enumerated() {
                expectMatch(item.value, nodes[index], path: path + "[\(index)]", written: written, sourceLocation: sourceLocation)
            }
        case (.mapping(let entries, _), .mapping(let pairs)):
            guard entries.count == pairs.count else { return fail("\(pairs.count) entries, wrote \(entries.count)") }
            for (index, entry) in entries.enumerated() {
                let key = pairs[index].key
                expectMatch(.string(entry.key), key, path: path + ".key\(index)", written: written, sourceLocation: sourceLocation)
                expectMatch(entry.value, pairs[index].value, path: path + "." + entry.key.debugDescription, written: written, sourceLocation: sourceLocation)
            }
        default:
            fail("read back \(node.kindDescription) for \(value)")
        }
    }

    /// A plain scalar reads as a string unless it is empty, starts as a number does, or is a
    /// YAML 1.1 boolean or null word: checked here apart from the writer's own rules.
    static func readsAsString(_ text: String, _ style: YAMLScalarStyle) -> Bool {
        guard style == .plain else { return true }
        guard let first = text.unicodeScalars.first else { return false }
        if "0123456789+-.~".unicodeScalars.contains(first) { return false }
        let words = ["true", "false", "yes", "no", "on", "off", "y", "n", "null"]
        return !words.contains(text.lowercased())
    }
}
