import Foundation
import Testing

@testable import RunnerPlan
import RunnerVocabulary

@Suite("Value parsers")
struct ValueParserTests {
    @Test(arguments: [
        ("250ms", PlanDecoder.DurationParse.valid(.milliseconds(250))),
        ("3s", .valid(.seconds(3))),
        ("1.5s", .valid(.milliseconds(1500))),
        ("1m", .valid(.seconds(60))),
        ("0.5ms", .valid(.microseconds(500))),
        ("10", .invalid),
        ("1h", .valid(.seconds(3600))),
        ("7d", .valid(.seconds(604_800))),
        ("1w", .invalid),
        ("s", .invalid),
        ("3 s", .invalid),
        ("1.2.3s", .invalid),
        ("0s", .notPositive),
        ("-1s", .notPositive),
        ("99999999999999m", .tooLarge),
    ])
    func durations(text: String, expected: PlanDecoder.DurationParse) {
        #expect(PlanDecoder.parseDuration(text) == expected)
    }

    @Test(arguments: [
        ("1048576", 1_048_576), ("1MiB", 1 << 20), ("512 KiB", 512 << 10), ("10B", 10), ("2GiB", 2 << 30),
        ("1MB", nil), ("", nil), ("MiB", nil), ("1.5MiB", nil), ("99999999999999GiB", nil),
    ] as [(String, Int?)])
    func sizes(text: String, expected: Int?) {
        #expect(PlanDecoder.parseSize(text) == expected)
    }

    @Test(arguments: [
        ("$", [JSONPath.Component]()),
        ("$.a.b", [.member("a"), .member("b")]),
        ("$.items[0].id", [.member("items"), .index(0), .member("id")]),
        ("$['a b'][\"c\"]", [.member("a b"), .member("c")]),
        ("$['it\\'s']", [.member("it's")]),
        ("$[12][3]", [.index(12), .index(3)]),
    ])
    func validJSONPaths(text: String, components: [JSONPath.Component]) throws {
        let path = try JSONPathParser.parse(text).get()
        #expect(path.components == components)
        #expect(path.text == text)
    }

    @Test(arguments: ["", "a.b", "$.", "$..a", "$[", "$[x]", "$['a'", "$[-1]", "$a", "$.a]"])
    func invalidJSONPaths(text: String) {
        #expect(throws: JSONPathParser.Problem.self) { try JSONPathParser.parse(text).get() }
    }

    @Test("YAML 1.2 core schema typing of plain scalars")
    func coreSchema() {
        func value(_ text: String, _ style: YAMLScalarStyle = .plain) -> JSONValue {
            PlanDecoder.coreSchemaValue(
                Text(value: text, shown: text, mark: YAMLMark(line: 1, column: 1), style: style, forcedString: false))
        }
        #expect(value("") == .null)
        #expect(value("~") == .null)
        #expect(value("null") == .null)
        #expect(value("true") == .bool(true))
        #expect(value("False") == .bool(false))
        #expect(value("yes") == .string("yes"))
        #expect(value("42") == .number(42))
        #expect(value("-7") == .number(-7))
        #expect(value("1.5e3") == .number(1500))
        #expect(value(".5") == .number(0.5))
        #expect(value("1.2.3") == .string("1.2.3"))
        #expect(value("42", .doubleQuoted) == .string("42"))
        #expect(value("true", .singleQuoted) == .string("true"))
    }

    @Test("did-you-mean suggestions", arguments: [
        ("expct", "expect"), ("timout", "timeout"), ("Connect-Timeout", "connect_timeout"), ("hedaers", "headers"),
        ("sni", "sni-resolve"), ("stauts", "status"), ("xyzzy", nil), ("q", nil),
    ] as [(String, String?)])
    func suggestions(word: String, expected: String?) {
        let candidates = Keys.scenario.keySet.names + Keys.expect.keySet.names + StrategyKind.allCases.map(\.rawValue)
        #expect(Suggestion.closest(to: word, among: candidates) == expected)
    }
}

@Suite("YAML facade")
struct YAMLFacadeTests {
    private func parse(_ text: String) throws(PlanError) -> YAMLDocument {
        try YAMLParser(source: SourceText(file: "t.yaml", bytes: Array(text.utf8))).parse()
    }

    @Test("scalars keep their style, tag and 1-based position")
    func scalars() throws {
        let document = try parse("a: plain\nb: 'single'\nc: \"double\"\nd: |\n  literal\ne: !!str 10\n")
        guard case .mapping(let pairs) = document.root?.content else {
            Issue.record("expected a mapping")
            return
        }
        let values = pairs.map { pair -> (String, YAMLScalarStyle, Int, Int) in
            guard case .scalar(let value, let style) = pair.value.content else { return ("", .plain, 0, 0) }
            return (value, style, pair.value.mark.line, pair.value.mark.column)
        }
        #expect(values.map(\.0) == ["plain", "single", "double", "literal\n", "10"])
        #expect(values.map(\.1) == [.plain, .singleQuoted, .doubleQuoted, .literal, .plain])
        #expect(values.map(\.2) == [1, 2, 3, 4, 6])
        #expect(values.map(\.3) == [4, 4, 4, 4, 4])
        #expect(pairs[4].value.tag == YAMLTag.string)
    }

    @Test("aliases expand and merge keys apply, written keys winning")
    func aliasesAndMerge() throws {
        let document = try parse("""
            base: &base {timeout: 1s, http: "2"}
            one:
              <<: *base
              timeout: 5s
            two: *base
            """)
        guard case .mapping(let pairs) = document.root?.content,
              case .mapping(let one) = pairs[1].value.content,
              case .mapping(let two) = pairs[2].value.content
        else {
            Issue.record("expected mappings")
            return
        }
        let oneKeys = one.compactMap { pair -> String? in
            if case .scalar(let key, _) = pair.key.content, case .scalar(let value, _) = pair.value.content {
                return "\(key)=\(value)"
            }
            return nil
        }
        #expect(oneKeys.sorted() == ["http=2", "timeout=5s"])
        #expect(two.count == 2)
        #expect(pairs[2].value.mark == YAMLMark(line: 5, column: 6))
        #expect(document.errors.isEmpty)
    }

    @Test("a recursive alias is an error, not a hang")
    func recursiveAlias() {
        #expect(throws: PlanError(
            location: SourceLocation(file: "t.yaml", line: 1, column: 8),
            message: "alias '*a' refers to a node that contains it")
        ) {
            try parse("a: &a [*a]\n")
        }
    }

    @Test("duplicate keys are reported without stopping, the first value kept")
    func duplicateKeys() throws {
        let document = try parse("a: 1\nb: 2\na: 3\n")
        #expect(document.errors.map(\.description) == ["t.yaml:3:1: error: duplicate key 'a' (first at 1:1)"])
        guard case .mapping(let pairs) = document.root?.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.count == 2)
        if case .scalar(let value, _) = pairs[0].value.content { #expect(value == "1") }
    }

    @Test("128 levels of nesting are fine, 129 are not")
    func depthLimit() throws {
        let fine = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(try parse(fine).root != nil)
        let tooDeep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(throws: PlanError.self) { try parse(tooDeep) }
    }

    @Test("an empty stream has no root")
    func emptyStream() throws {
        #expect(try parse("").root == nil)
        #expect(try parse("# only a comment\n").root == nil)
    }
}
