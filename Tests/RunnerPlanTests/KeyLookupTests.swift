import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// Keys are recognised by the index the parser gives their text, not by comparing strings:
/// these tests pin the pieces that make that work.
@Suite("Key lookup")
struct KeyLookupTests {
    @Test("plan keys fit a key set and have distinct texts")
    func planKeys() {
        #expect(PlanKey.allCases.count <= KeySet.capacity)
        #expect(Set(PlanKey.texts).count == PlanKey.texts.count)
    }

    @Test("known texts get the indices 1, 2, 3… and equal texts share an index")
    func interning() {
        var texts = ScalarTexts(knownTexts: ["alpha", "beta"])
        func index(_ text: String) -> Int32 { text.withUTF8Bytes { texts.index(of: $0) } }
        #expect(index("<<") == ScalarTexts.mergeKey)
        #expect(index("alpha") == 1)
        #expect(index("beta") == 2)
        let gamma = index("gamma")
        #expect(gamma == 3)
        #expect(index(String(repeating: "long text ", count: 20)) == 4)
        #expect(index("gamma") == gamma)
        #expect(index(String(repeating: "long text ", count: 20)) == 4)
        #expect(index("") == 5)
        #expect(texts.strings[Int(gamma)] == "gamma")
    }

    @Test("a parsed mapping's keys map back to plan keys; other keys do not", arguments: PlanKey.allCases)
    func keysFromAParsedPlan(key: PlanKey) throws {
        let text = "\(key.rawValue): 1\nnot_a_key: 2\n'\(key.rawValue)': 3\n"
        let document = try YAMLParser(source: SourceText(file: "t.yaml", bytes: Array(text.utf8)), knownTexts: PlanKey.texts)
            .parse()
        guard case .mapping(let pairs) = document.root?.content else {
            Issue.record("expected a mapping")
            return
        }
        // The quoted key is the same text: a duplicate, reported and dropped by the parser.
        #expect(pairs.count == 2)
        #expect(pairs.keyTextIndex(at: 0).flatMap(PlanKey.init) == key)
        #expect(pairs.keyTextIndex(at: 1).flatMap(PlanKey.init) == nil)
        #expect(document.errors.count == 1)
    }

    @Test("keys that are equal strings are duplicates, however their bytes differ")
    func canonicallyEqualKeys() throws {
        // `café` precomposed then decomposed; `K` then the Kelvin sign (U+212A).
        let text = "a: 0\ncaf\u{E9}: 1\ncafe\u{301}: 2\nK: 3\n\u{212A}: 4\n"
        let document = try YAMLParser(source: SourceText(file: "t.yaml", bytes: Array(text.utf8)), knownTexts: PlanKey.texts)
            .parse()
        #expect(document.errors.map(\.description) == [
            "t.yaml:3:1: error: duplicate key 'cafe\u{301}' (first at 2:1)",
            "t.yaml:5:1: error: duplicate key '\u{212A}' (first at 4:1)",
        ])
    }

    @Test("a key set holds exactly its keys")
    func keySets() {
        let set = KeySet([.url, .method])
        for key in PlanKey.allCases {
            let index = Int32((PlanKey.allCases.firstIndex(of: key) ?? 0) + 1)
            #expect(set.contains(textIndex: index) == (key == .url || key == .method))
        }
        #expect(!set.contains(textIndex: 0))
        #expect(!set.contains(textIndex: Int32(PlanKey.allCases.count + 1)))
    }

    @Test("two of the body keys: the second in file order is reported", arguments: [
        (["body", "body_base64"], "found 'body' and 'body_base64'"),
        (["body_file", "body"], "found 'body_file' and 'body'"),
        (["body_base64", "body_file", "body"], "found 'body_base64' and 'body_file'"),
        (["body_file", "body_base64", "body"], "found 'body_file' and 'body_base64'"),
    ])
    func bodyKinds(keys: [String], found: String) throws {
        let workspace = try PlanWorkspace()
        try workspace.write("data.bin", "x")
        let values = ["body": "'x'", "body_base64": "eA==", "body_file": "data.bin"]
        let lines = keys.map { "      \($0): \(values[$0] ?? "")" }.joined(separator: "\n")
        let path = try workspace.write("bad.yaml", """
            version: 1
            scenarios:
              - name: a
                request:
                  url: http://api.example.com/
            \(lines)
            """)
        #expect(loadErrors(path).map(\.description) == [
            "\(path):7:7: error: only one of 'body', 'body_base64' and 'body_file' may be given in request of scenario 'a'; \(found)",
        ])
    }

    @Test("a header written twice points at the first")
    func duplicateHeader() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("bad.yaml", """
            version: 1
            scenarios:
              - name: a
                request:
                  url: http://api.example.com/
                  headers:
                    Accept: a
                    X-One: b
                    accept: c
            """)
        #expect(loadErrors(path).map(\.description) == [
            "\(path):9:9: error: duplicate header 'accept' in request.headers of scenario 'a' (first at 7:9)",
        ])
    }
}
