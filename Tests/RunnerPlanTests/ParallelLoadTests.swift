import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// Reading a plan's scenario list on several cores gives the very plan, or the very errors,
/// that reading it whole gives; and it is really taken for plans of the usual shape.
@Suite("Plans read on several cores")
struct ParallelLoadTests {
    /// Both paths read the same file, so locations compare equal.
    private let workspace: PlanWorkspace

    init() throws {
        workspace = try PlanWorkspace()
    }
    // MARK: The split (bytes only)

    @Test("a plan of the usual shape is cut at item lines, the top level keeps what surrounds the list")
    func usualShape() throws {
        let text = """
            version: 1
            scenarios:   # the list
              - name: a
                request: {url: "http://a.test/"}

              - name: b
                request: {url: "http://b.test/"}
              # a comment at the items' column
              - name: c
                request:
                  url: http://c.test/
            defaults: {timeout: 2s}

            """
        let split = try #require(cut(text, pieces: 3))
        #expect(split.keyLine == 2)
        #expect(split.indent == 2)
        #expect(split.firstLine == 2)
        #expect(split.lineCount == 9)
        #expect(split.pieces.map(\.items) == [1, 1, 1])
        #expect(split.pieces.map(\.itemsBefore) == [0, 1, 2])
        #expect(split.pieces.map(\.firstLine) == [2, 5, 8])
        let bytes = Array(text.utf8)
        #expect(string(bytes[split.pieces[1].bytes]).hasPrefix("  - name: b\n"))
        #expect(string(bytes[split.pieces[1].bytes]).hasSuffix("# a comment at the items' column\n"))
        let head = bytes.withUnsafeBufferPointer { split.head(of: $0) }
        #expect(String(decoding: head, as: UTF8.self) == "version: 1\nscenarios:   # the list\ndefaults: {timeout: 2s}\n")
    }

    @Test("items at column 1, and a list that runs to the end without a final newline")
    func columnOneItems() throws {
        let text = "scenarios:\n- name: a\n  request: {url: \"http://a.test/\"}\n-\n  name: b\n  request: {url: \"http://b.test/\"}"
        let split = try #require(cut(text, pieces: 2))
        #expect(split.indent == 0)
        #expect(split.pieces.map(\.items) == [1, 1])
        #expect(split.list.upperBound == text.utf8.count)
        #expect(split.lineCount == 5)
    }

    @Test(
        "shapes it leaves to the one-core path",
        arguments: [
            ("no list key", "version: 1\nitems:\n  - a\n  - b\n"),
            ("a flow list", "scenarios: [a, b]\n"),
            ("an anchor on the list", "scenarios: &all\n  - a\n  - b\n"),
            ("a quoted key", "\"scenarios\":\n  - a\n  - b\n"),
            ("an indented key", "  scenarios:\n  - a\n  - b\n"),
            ("something before the first item", "scenarios:\n  x: 1\n  - a\n"),
            ("one item only", "scenarios:\n  - a: 1\n    b: 2\n"),
            ("CRLF line breaks", "scenarios:\r\n  - a\r\n  - b\r\n"),
            ("a NEL line break", "name: x\u{85}y\nscenarios:\n  - a\n  - b\n"),
            ("a line separator", "name: \"x\u{2028}y\"\nscenarios:\n  - a\n  - b\n"),
        ])
    func refused(_ shape: String, _ text: String) {
        #expect(cut(text, pieces: 2) == nil, "\(shape)")
    }

    @Test("a list too small for the wanted piece size stays whole")
    func pieceSize() {
        let text = ScaleTests.generatedPlan(scenarios: 100)
        #expect(cut(text, pieces: 2, minimumPieceBytes: 1 << 20) == nil)
        #expect(cut(text, pieces: 2, minimumPieceBytes: 1 << 10)?.pieces.count == 2)
    }

    // MARK: Equal plans

    @Test("the bench's plan shape: every cut gives the plan the one-core path gives")
    func scalePlan() throws {
        let text = ScaleTests.generatedPlan(scenarios: 300)
        let serial = try load(text, .oneCore)
        for pieces in [2, 3, 7] {
            let parallel = try #require(parallelOnly(text, pieces: pieces), "\(pieces) pieces")
            #expect(firstDifference(serial, parallel) == nil, "\(pieces) pieces")
        }
        #expect(serial.scenarios[299].location.line == 10 + 299 * 14)
    }

    @Test("keys after the list are read, and lines after it keep their numbers")
    func keysAfterTheList() throws {
        let text = """
            version: 1
            scenarios:
              - name: a
                request: {url: "http://a.test/"}
              - name: b
                request: {url: "http://b.test/"}
              - name: c
                request: {url: "http://c.test/${host_suffix}"}
            vars: {host_suffix: x}
            defaults: {timeout: 2s, retries: 1}

            """
        let parallel = try #require(parallelOnly(text, pieces: 3))
        #expect(parallel == (try load(text, .oneCore)))
        #expect(parallel.scenarios.map(\.location.line) == [3, 5, 7])
        #expect(parallel.scenarios[2].request.url.description == "http://c.test/x")
        #expect(parallel.scenarios.allSatisfy { $0.settings.timeout == .seconds(2) && $0.settings.retries == 1 })
    }

    @Test("secrets are listed in the order one reader meets them")
    func secretsInOrder() throws {
        var text = "version: 1\nvars: {first: \"${secret:S0}\"}\nscenarios:\n"
        for index in 0..<12 {
            text += "  - name: s\(index)\n    request:\n      url: http://a.test/\n"
            text += "      headers: {X-Key: \"${secret:S\(12 - index)}\", X-First: \"${first}\"}\n"
        }
        let environment = Dictionary(uniqueKeysWithValues: (0...12).map { ("S\($0)", "value-\($0)") })
        let serial = try load(text, .oneCore, environment: environment)
        #expect(serial.secrets.map(\.value) == ["value-0"] + (1...12).reversed().map { "value-\($0)" })
        let parallel = try #require(parallelOnly(text, pieces: 4, environment: environment))
        #expect(parallel == serial)
    }

    @Test("a large plan takes the parallel path by itself, with the one-core plan and errors")
    func automaticOnALargePlan() throws {
        var text = ScaleTests.generatedPlan(scenarios: 4_000)
        let serial = try load(text, .oneCore)
        let path = try workspace.write("p.yaml", text)
        let source = try SourceText.load(path: path)
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            let parallel = try #require(
                ParallelPlanLoad.load(source, variables: [:], environment: [:], parallelism: .automatic),
                "a plan of \(text.utf8.count / 1024) KiB must be read in pieces on \(ProcessInfo.processInfo.activeProcessorCount) cores")
            #expect(firstDifference(serial, parallel) == nil)
        }
        #expect(firstDifference(serial, try load(text, .automatic)) == nil)

        // An error in the second half: the same text as the one-core path's, through the loader.
        text = text.replacingOccurrences(of: "    request:\n      method: POST\n      url: https://api.example.com/items/3000?q=1",
                                         with: "    request:\n      method: POST\n      url: ftp://api.example.com/items/3000?q=1")
        let expected = errorText(text, .oneCore)
        #expect(expected.contains("ftp://api.example.com/items/3000"), "\(expected)")
        #expect(errorText(text, .automatic) == expected)
    }

    // MARK: What it leaves to the one-core path

    @Test("a cut inside a multi-line quoted string is refused, and the plan is read whole")
    func cutInsideQuotedString() throws {
        // The second `- ` line at the items' column is inside a string: libyaml reads
        // name: "first - fake".
        let text = """
            version: 1
            scenarios:
              - name: "first
              - fake"
                request: {url: "http://a.test/"}
              - name: second
                request: {url: "http://b.test/"}

            """
        let split = try #require(cut(text, pieces: 3))
        #expect(split.pieces.map(\.firstLine) == [2, 3, 5], "the split must cut inside the string for this test")
        #expect(parallelOnly(text, pieces: 3) == nil)
        let plan = try load(text, .pieces(3))
        #expect(plan.scenarios.map(\.name) == ["first - fake", "second"])
    }

    @Test("a list ending inside a flow mapping is refused")
    func endInsideFlowMapping() throws {
        let text = """
            version: 1
            scenarios:
              - name: a
                request: {url: "http://a.test/"}
              - name: b
                request: {url: "http://b.test/",
            method: GET}

            """
        #expect(cut(text, pieces: 2) != nil)
        #expect(parallelOnly(text, pieces: 2) == nil)
        #expect(try load(text, .pieces(2)).scenarios[1].request.method == "GET")
    }

    @Test("aliases in the list are left to the one-core path (their anchors may be in another piece)")
    func aliases() throws {
        let text = """
            version: 1
            scenarios:
              - name: a
                request: &request {url: "http://a.test/"}
              - name: b
                request: *request

            """
        #expect(cut(text, pieces: 2)?.pieces.count == 2)
        #expect(parallelOnly(text, pieces: 2) == nil)
        let plan = try load(text, .pieces(2))
        #expect(plan.scenarios[1].request.url.description == "http://a.test/")
    }

    @Test(
        "a piece's items are read one at a time: an alias to an earlier item of the piece, or within its own item, is left to the one-core path",
        arguments: [
            ("to an earlier item", "  - name: b\n    request: &request {url: \"http://b.test/\"}\n  - name: c\n    request: *request\n"),
            ("within its item", "  - name: b\n    tags: &tags [t]\n    x-note: *tags\n    request: {url: \"http://b.test/\"}\n"),
        ])
    func aliasesInOnePiece(_ what: String, _ items: String) throws {
        // Item a is over half the list, so the second piece starts at the next item.
        let long = String(repeating: "a", count: 400)
        let text = "version: 1\nscenarios:\n  - name: a\n    request: {url: \"http://a.test/\(long)\"}\n" + items
            + "  - name: z\n    request: {url: \"http://z.test/\"}\n"
        let split = try #require(cut(text, pieces: 2))
        // The alias and its anchor sit in one piece, the second.
        #expect(split.pieces.count == 2 && split.pieces[0].items == 1, "\(what)")
        #expect(parallelOnly(text, pieces: 2) == nil, "\(what)")
        #expect(try load(text, .pieces(2)) == load(text, .oneCore), "\(what)")
    }

    @Test("a flow mapping at the top is left to the one-core path")
    func flowTopLevel() throws {
        let text = "{version: 1,\nscenarios:\n  - a\n  - b\n}\n"
        #expect(cut(text, pieces: 2) != nil)
        #expect(parallelOnly(text, pieces: 2) == nil)
        #expect(errorText(text, .pieces(2)) == errorText(text, .oneCore))
    }

    @Test(
        "errors anywhere read exactly as the one-core path reports them",
        arguments: [
            ("duplicate names in two pieces", "  - name: s1\n    request: {url: \"http://a.test/\"}\n"),
            ("an unknown key", "  - name: x\n    requets: {url: \"http://a.test/\"}\n"),
            ("a tab", "  - name: x\n\trequest: {url: \"http://a.test/\"}\n"),
            ("an undefined alias", "  - name: x\n    request: *nowhere\n"),
            ("an empty item", "  -\n"),
            ("a second document", "---\nversion: 1\n"),
            ("a bad url", "  - name: x\n    request: {url: \"ftp://a.test/\"}\n"),
            ("an after that names no scenario", "  - name: x\n    after: s99\n    request: {url: \"http://a.test/\"}\n"),
            ("an after cycle", "  - name: x\n    after: y\n    request: {url: \"http://a.test/\"}\n"
                + "  - name: y\n    after: x\n    request: {url: \"http://a.test/\"}\n"),
        ])
    func errorsMatch(_ what: String, _ extra: String) {
        var text = "version: 1\nscenarios:\n"
        for index in 0..<6 { text += "  - name: s\(index)\n    request: {url: \"http://a.test/\(index)\"}\n" }
        text += extra
        for index in 6..<9 { text += "  - name: s\(index)\n    request: {url: \"http://a.test/\(index)\"}\n" }
        let serial = errorText(text, .oneCore)
        #expect(!serial.isEmpty, "\(what) must be an error for this test")
        for pieces in [2, 3, 5] {
            #expect(errorText(text, .pieces(pieces)) == serial, "\(what), \(pieces) pieces")
        }
    }

    // MARK: Generated plans

    @Test("generated plans: the parallel path returns the one-core plan or nothing, and is taken for ordinary ones")
    func generatedPlans() throws {
        var generator = SeededGenerator(seed: 0x5EED_0006)
        var taken = 0
        var ordinary = 0
        for round in 0..<300 {
            let generated = GeneratedPlan.make(using: &generator)
            let serial = Result { try load(generated.text, .oneCore, environment: GeneratedPlan.environment) }
            for pieces in [2, 3, 5] {
                let parallel = parallelOnly(generated.text, pieces: pieces, environment: GeneratedPlan.environment)
                if let parallel {
                    taken += 1
                    let difference = (try? serial.get()).map { firstDifference($0, parallel) } ?? "the one-core path refuses it"
                    #expect(
                        difference == nil,
                        "round \(round), \(pieces) pieces: a plan the one-core path does not give:\n\(generated.text)")
                } else if generated.isOrdinary {
                    Issue.record("round \(round), \(pieces) pieces: an ordinary plan was not read in pieces:\n\(generated.text)")
                }
                if pieces == 2 {
                    let viaLoader = errorText(generated.text, .pieces(pieces), environment: GeneratedPlan.environment)
                    #expect(viaLoader == errorText(generated.text, .oneCore, environment: GeneratedPlan.environment))
                }
            }
            if generated.isOrdinary { ordinary += 1 }
        }
        // Both kinds are well represented: about a quarter of the plans carry no trap.
        #expect(ordinary > 50 && ordinary < 250)
        #expect(taken >= ordinary * 3)
    }

    // MARK: Helpers

    /// Where two plans differ (the first scenario that does, both ways written out), or nil.
    private func firstDifference(_ expected: Plan, _ actual: Plan) -> String? {
        guard expected != actual else { return nil }
        for (index, pair) in zip(expected.scenarios, actual.scenarios).enumerated() where pair.0 != pair.1 {
            return "scenario \(index):\n  one core: \(pair.0)\n  parallel: \(pair.1)"
        }
        var expectedRest = expected, actualRest = actual
        expectedRest.scenarios = []
        actualRest.scenarios = []
        return "\(expected.scenarios.count) vs \(actual.scenarios.count) scenarios; \(expectedRest) vs \(actualRest)"
    }

    private func cut(_ text: String, pieces: Int, minimumPieceBytes: Int = 1) -> ScenarioListSplit? {
        Array(text.utf8).withUnsafeBufferPointer {
            ScenarioListSplit($0, pieces: pieces, minimumPieceBytes: minimumPieceBytes)
        }
    }

    private func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The parallel path alone: the plan, or nil where it leaves the plan to the one-core path.
    private func parallelOnly(_ text: String, pieces: Int, environment: [String: String] = [:]) -> Plan? {
        guard let path = try? workspace.write("p.yaml", text), let source = try? SourceText.load(path: path) else {
            Issue.record("cannot write the plan")
            return nil
        }
        return ParallelPlanLoad.load(source, variables: [:], environment: environment, parallelism: .pieces(pieces))
    }

    /// The plan through `PlanLoader`, from the same file as `parallelOnly` reads.
    private func load(_ text: String, _ parallelism: PlanParallelism, environment: [String: String] = [:]) throws -> Plan {
        let path = try workspace.write("p.yaml", text)
        return try PlanLoader.load(path: path, environment: environment, parallelism: parallelism)
    }

    /// Every error as the command line prints it (empty when the plan loads).
    private func errorText(_ text: String, _ parallelism: PlanParallelism, environment: [String: String] = [:]) -> String {
        do {
            _ = try load(text, parallelism, environment: environment)
            return ""
        } catch let errors as PlanErrors {
            return errors.errors.map { "\($0)" }.joined(separator: "\n")
        } catch {
            return "\(error)"
        }
    }
}

/// A random plan: ordinary scenarios, sometimes with traps for the cut (multi-line strings and
/// flow collections, deep lines that look like items, aliases, keys after the list, errors).
private struct GeneratedPlan {
    var text: String
    /// Valid, and of the shape the parallel path must take (no alias, no trap).
    var isOrdinary: Bool

    static let environment = ["TOKEN": "s3cr3t", "OTHER": "0th3r"]

    static func make(using generator: inout SeededGenerator) -> GeneratedPlan {
        var ordinary = true
        let indent = String(repeating: " ", count: [0, 2, 2, 4].randomElement(using: &generator) ?? 2)
        let inner = indent + "  "
        var top: [String] = [
            "version: 1",
            "vars: {region: cn, token: \"${secret:TOKEN}\"}",
            "defaults:\n  timeout: 5s\n  headers: {User-Agent: runner/1}",
            "domains:\n  builtin:\n    static: {api.example.com: [203.0.113.10, 203.0.113.11]}",
        ]
        top.shuffle(using: &generator)
        var list = "scenarios:" + (Bool.random(using: &generator) ? "  # the scenarios" : "") + "\n"
        let count = Int.random(in: 2...12, using: &generator)
        for index in 0..<count {
            if Int.random(in: 0..<6, using: &generator) == 0 { list += "\n" }
            if Int.random(in: 0..<8, using: &generator) == 0 { list += indent + "# - name: not an item\n" }
            let name = ["s\(index)", "\"s\(index) in ${region}\"", "'s\(index)'"].randomElement(using: &generator) ?? ""
            list += indent + "- name: \(name)\n"
            if Bool.random(using: &generator) { list += inner + "tags: [t\(index % 3)]\n" }
            if Bool.random(using: &generator) { list += inner + "domains: builtin\n" }
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                list += inner + "request: {url: \"https://api.example.com/\(index)\"}\n"
            case 1:
                list += inner + "request:\n" + inner + "  method: POST\n" + inner + "  url: https://api.example.com/p\n"
                list += inner + "  headers:\n" + inner + "    X-Token: \"${token}\"\n" + inner + "    X-Other: \"${secret:OTHER}\"\n"
                list += inner + "  body: |\n" + inner + "    - a line that looks like an item\n" + inner + "    # and a comment\n"
            case 2:
                list += inner + "request:\n" + inner + "  url: >-\n" + inner + "    https://api.example.com/folded\n"
            default:
                list += "\(inner)request: {url: \"https://api.example.com/\(index)\", method: GET}\n"
            }
            if Bool.random(using: &generator) { list += inner + "expect: {status: [200, 201], time: {total: 800ms}}\n" }
            // Traps, each making the plan not ordinary.
            switch Int.random(in: 0..<40, using: &generator) {
            case 0:
                // A quoted string whose next line sits at the items' column, looking like an item.
                list += inner + "tags: [\"a\n" + indent + "- b\"]\n"
                ordinary = false
            case 1:
                // A flow mapping spanning lines, its last line at column 1.
                list += inner + "expect: {status: 200,\ntime: {total: 1s}}\n"
                ordinary = false
            case 2:
                list += inner + "tags: &tags [x]\n"
                ordinary = false
            case 3:
                list += inner + "unknown: key\n"
                ordinary = false
            case 4:
                list += indent + "- name: s0\n" + inner + "request: {url: \"https://api.example.com/dup\"}\n"
                ordinary = false
            case 5:
                list += "\t" + inner + "tags: [x]\n"
                ordinary = false
            default:
                break
            }
        }
        if Int.random(in: 0..<10, using: &generator) == 0 {
            list += indent + "- name: aliased\n" + inner + "request: {url: \"https://api.example.com/a\"}\n"
            list += inner + "tags: *tags\n"
            ordinary = false
        }
        // The list goes somewhere among the top-level keys, often last.
        let position = Bool.random(using: &generator) ? top.count : Int.random(in: 0...top.count, using: &generator)
        top.insert(list.hasSuffix("\n") ? String(list.dropLast()) : list, at: position)
        var text = top.joined(separator: "\n") + "\n"
        if Int.random(in: 0..<20, using: &generator) == 0 {
            text += "---\nversion: 1\n"
            ordinary = false
        }
        return GeneratedPlan(text: text, isOrdinary: ordinary)
    }
}
