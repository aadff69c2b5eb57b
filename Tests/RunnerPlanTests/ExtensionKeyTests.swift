import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan
import RunnerVocabulary

/// Keys of the plan's own (`x-…`, issue 43): accepted and ignored in every mapping whose keys the
/// runner defines, with their anchors still usable; names like any other where the plan chooses
/// the keys (headers, vars); never offered as a `did you mean`; and the schema agrees.
@Suite("x- keys", .timeLimit(.minutes(3)))
struct ExtensionKeyTests {
    /// Settings parked at the top level and merged where they apply, notes in nested mappings.
    static let anchoredPlan = """
        version: 1
        x-common: &common {timeout: 5s, retries: 2, headers: {Accept: application/json}}
        x-notes: [for other tools, "${never substituted}"]
        vars:
          x-region: cn-north
        defaults:
          <<: *common
          x-why: what every scenario shares
        domains:
          pinned:
            x-source: the apps' built-in list
            static: {api.example.com: [203.0.113.10]}
        scenarios:
          - name: merged
            x-ticket: OPS-1
            <<: *common
            retries: 3
            domains: pinned
            request:
              url: https://api.example.com/v1?region=${x-region}
              headers: {x-request-id: probe}
              x-note: {any: [shape, 1]}
            expect:
              x-note: an expect note
              status: 200
              headers:
                Server: {equals: nginx, x-why: the edge's server}
              time: {total: 2s, x-budget: p99}

        """

    @Test("an x- key is accepted in every section the runner defines", arguments: PlanSection.allCases)
    func acceptedInEverySection(_ section: PlanSection) throws {
        #expect(try PlanReferenceTests.unknownKeyErrors("x-note", in: section) == [])
        // The same plan with a key that is not the plan's own is refused there (the guard works).
        #expect(try PlanReferenceTests.unknownKeyErrors("y-note", in: section).count == 1)
    }

    @Test("x-common with an anchor, merged with <<: *common, sets what it holds; notes change nothing")
    func anchorsAndMergeKeys() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("anchored.yaml", Self.anchoredPlan)
        let plan = try PlanLoader.load(path: path, environment: [:])
        let scenario = try #require(plan.scenarios.first)
        #expect(scenario.settings.timeout == .seconds(5))
        // Written in the scenario, it wins over the merged value.
        #expect(scenario.settings.retries == 3)
        // Under `headers` and `vars` an x- key is a name: a header sent, a variable used.
        #expect(scenario.request.headers.contains(Header(name: "x-request-id", value: "probe")))
        #expect(scenario.request.headers.contains(Header(name: "Accept", value: "application/json")))
        #expect(scenario.request.url.pathAndQuery == "/v1?region=cn-north")
    }

    @Test("the schema accepts x- keys where the decoder does, with anchors and merge keys")
    func schemaAccepts() async throws {
        let workspace = try PlanWorkspace()
        var paths = [try workspace.write("anchored.yaml", Self.anchoredPlan)]
        for section in PlanSection.allCases {
            paths.append(try workspace.write("\(section.rawValue).yaml", PlanReferenceTests.plan(with: "x-note", in: section)))
        }
        let problems = try await SchemaChecker.check(paths)
        #expect(problems[paths[0]] == nil, "\(problems[paths[0]] ?? [])")
        for (section, path) in zip(PlanSection.allCases, paths.dropFirst()) {
            let messages = problems[path] ?? []
            // Refused as a key it would be named so; a section that wants exactly one real key
            // (a matcher, a map) still wants it, which is another message.
            #expect(
                !messages.contains { $0.contains("'x-note' does not match") || $0.contains("'x-note' was unexpected") },
                "\(section.rawValue): \(messages)")
        }
    }

    /// The schema's `oneOf` for matchers and maps still wants exactly one real key: an x- key
    /// beside it does not count, nor does it stand in for one.
    @Test("the schema's exactly-one-of sections count real keys only")
    func schemaExactlyOneOf() async throws {
        let workspace = try PlanWorkspace()
        let request = "request: {url: 'https://api.example.com/'}"
        let withNote = "version: 1\nscenarios:\n  - {name: a, \(request), expect: {headers: {Accept: {equals: x, x-n: 1}}}}\n"
        let onlyNote = "version: 1\nscenarios:\n  - {name: a, \(request), expect: {headers: {Accept: {x-n: 1}}}}\n"
        let two = "version: 1\nscenarios:\n  - {name: a, \(request), expect: {headers: {Accept: {equals: x, contains: y}}}}\n"
        let paths = [
            try workspace.write("with-note.yaml", withNote), try workspace.write("only-note.yaml", onlyNote),
            try workspace.write("two.yaml", two),
        ]
        let problems = try await SchemaChecker.check(paths)
        #expect(problems[paths[0]] == nil, "\(problems[paths[0]] ?? [])")
        #expect(problems[paths[1]] != nil)
        #expect(problems[paths[2]] != nil)
        #expect(!loadErrors(paths[1]).isEmpty)
        #expect(!loadErrors(paths[2]).isEmpty)
    }

    /// A misspelt key beside x- keys that are closer to it than any real key: the suggestion is
    /// a key of the section, or none; never the x- key.
    @Test("no did-you-mean suggests an x- key", arguments: PlanSection.allCases)
    func neverSuggested(_ section: PlanSection) throws {
        for misspelt in ["xtimeout", "timeoutx", "commn"] {
            let workspace = try PlanWorkspace()
            let written = PlanReferenceTests.plan(with: misspelt, in: section)
            // The x- siblings, beside the misspelt key: on lines of their own at the top level,
            // in the same flow mapping elsewhere.
            let plan = section == .top
                ? written.replacingOccurrences(of: "\n\(misspelt): x\n", with: "\n\(misspelt): x\nx-timeout: 1\nx-common: 2\n")
                : written.replacingOccurrences(of: "\(misspelt): x", with: "\(misspelt): x, x-timeout: 1, x-common: 2")
            #expect(plan.contains("x-timeout: 1"))
            let path = try workspace.write("plan.yaml", plan)
            let messages = loadErrors(path).map(\.message)
            let unknown = messages.filter { $0.hasPrefix("unknown key '\(misspelt)'") }
            #expect(unknown.count == 1, "\(section.rawValue) \(misspelt): \(messages)")
            for message in messages {
                #expect(!message.contains("did you mean 'x-"), "\(section.rawValue): \(message)")
            }
        }
    }

    @Test("X-note and x_note are unknown keys, told how a key of the plan's own is written")
    func otherSpellingsAreTold() throws {
        for key in ["X-common", "x_common"] {
            let workspace = try PlanWorkspace()
            let path = try workspace.write("plan.yaml", PlanReferenceTests.plan(with: key, in: .top))
            #expect(
                loadErrors(path).map(\.message) == [
                    "unknown key '\(key)' at top level; a key of the plan's own starts with 'x-' (lower case, then a hyphen)"
                ])
        }
    }

    @Test("the fuzz corpus's x- key plan loads")
    func corpusSeedLoads() throws {
        let path = Repository.root.appendingPathComponent("fuzz/corpus/plan/extension-keys.yaml").path
        #expect(loadErrors(path).map(\.description) == [])
    }
}
