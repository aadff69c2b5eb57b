import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// docs/plan.schema.json as editors apply it, by check-jsonschema (PyPI, which `make deps`
/// installs): every plan of the repository passes it, so do the whole plans the reference shows,
/// the decoder and the schema agree on plans written to probe each value's shapes, and a key
/// the decoder does not know fails it in every section, named. Without check-jsonschema these
/// tests fail, saying how to install it.
@Suite("Plans against the schema", .timeLimit(.minutes(3)))
struct PlanSchemaValidationTests {
    /// Files of the fuzz corpus that are broken on purpose below the plan: not YAML, not UTF-8,
    /// two documents. The `malformed-*` ones are plans the decoder must refuse (most for what a
    /// schema cannot see, such as an undeclared map); every other corpus file is a valid plan.
    static let corpusNonPlans: Set<String> = [
        "bad-utf8.yaml", "binary.yaml", "control.yaml", "tab.yaml", "two-documents.yaml", "unicode-breaks.yaml",
        "unterminated.yaml",
    ]

    static func yamlFiles(in folder: String) throws -> [String] {
        let directory = Repository.root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { directory.appendingPathComponent($0).path }
    }

    /// The literal block scalars (`KEY.yaml: |`) of a YAML file: the plans a Kubernetes ConfigMap holds.
    static func embeddedPlans(in text: String) -> [(name: String, text: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var plans: [(name: String, text: String)] = []
        for (index, line) in lines.enumerated() {
            let keyIndent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(keyIndent)
            guard trimmed.hasSuffix(".yaml: |") || trimmed.hasSuffix(".yml: |") else { continue }
            var body: [String] = []
            for next in lines[(index + 1)...] {
                let indent = next.prefix { $0 == " " }.count
                if !next.trimmingCharacters(in: .whitespaces).isEmpty, indent <= keyIndent { break }
                body.append(next)
            }
            let blockIndent = body.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .map { $0.prefix { $0 == " " }.count } ?? 0
            let text = body.map { String($0.dropFirst(min(blockIndent, $0.prefix { $0 == " " }.count))) }
                .joined(separator: "\n")
            plans.append((String(trimmed.dropLast(": |".count)), text))
        }
        return plans
    }

    @Test("check-jsonschema is installed and reads the schema as valid JSON Schema 2020-12")
    func schemaIsValid() async throws {
        guard FileManager.default.isExecutableFile(atPath: Repository.checkJSONSchema.path) else {
            throw SchemaChecker.Missing()
        }
        let output = try await offPool {
            try ChildProcess.run(Repository.checkJSONSchema, ["--check-metaschema", Repository.planSchema.path])
        }
        #expect(
            output.termination == .exited(0),
            "\(String(decoding: output.stdout, as: UTF8.self))\(String(decoding: output.stderr, as: UTF8.self))")
    }

    @Test("every plan of the repository passes the schema: plans/, the fuzz corpus, the reference's, the ConfigMap's")
    func repositoryPlansPass() async throws {
        let workspace = try PlanWorkspace()
        let shipped = try Self.yamlFiles(in: "plans")
        #expect(Set(shipped.map { ($0 as NSString).lastPathComponent }).isSuperset(of: ["lab.yaml", "prod.yaml"]), "\(shipped)")

        let corpus = try Self.yamlFiles(in: "fuzz/corpus/plan").filter { path in
            let name = (path as NSString).lastPathComponent
            return !name.hasPrefix("malformed-") && !Self.corpusNonPlans.contains(name)
        }
        #expect(corpus.count >= 6, "\(corpus)")

        let examples = PlanReferenceTests.examplePlans(in: PlanReferenceTests.reference)
        #expect(!examples.isEmpty, "docs/plan-format.md shows no whole plan")
        var written: [String] = []
        for (index, plan) in examples.enumerated() {
            written.append(try workspace.write("plan-format-\(index + 1).yaml", plan))
        }

        let configMap = try String(
            contentsOf: Repository.root.appendingPathComponent("monitoring/kubernetes/configmap-plans.yaml"), encoding: .utf8)
        let embedded = Self.embeddedPlans(in: configMap)
        #expect(!embedded.isEmpty, "the ConfigMap holds no plan")
        for plan in embedded {
            #expect(plan.text.hasPrefix("version: 1"), "\(plan.name) as read from the ConfigMap: \(plan.text)")
            written.append(try workspace.write("configmap-\(plan.name)", plan.text))
        }

        let problems = try await SchemaChecker.check(shipped + corpus + written)
        #expect(problems.isEmpty, "\(problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })")
    }

    @Test("the decoder and the schema agree on each sample: both accept it or both refuse it")
    func decoderAndSchemaAgree() async throws {
        let workspace = try PlanWorkspace()
        var paths: [String] = []
        for (index, sample) in SchemaSample.all.enumerated() {
            paths.append(try workspace.write("sample-\(index).yaml", sample.yaml))
        }
        let problems = try await SchemaChecker.check(paths)
        for (sample, path) in zip(SchemaSample.all, paths) {
            let decoderErrors = loadErrors(path, environment: SchemaSample.environment).map(\.description)
            #expect(decoderErrors.isEmpty == sample.valid, "\(sample.label): the decoder says \(decoderErrors)\n\(sample.yaml)")
            let schemaProblems = problems[path] ?? []
            #expect(schemaProblems.isEmpty == sample.valid, "\(sample.label): the schema says \(schemaProblems)\n\(sample.yaml)")
        }
    }

    /// The issue's example: a misspelt key fails, and the message names it where it is.
    @Test("a misspelt key fails the schema, named, in every section")
    func misspeltKeysFail() async throws {
        let workspace = try PlanWorkspace()
        let misspelt = SchemaSample.scenario("stratgy: sni-resolve")
        var paths = [try workspace.write("stratgy.yaml", misspelt)]
        for section in PlanSection.allCases {
            paths.append(try workspace.write("\(section.rawValue).yaml", PlanReferenceTests.plan(with: "not_a_key", in: section)))
        }
        let problems = try await SchemaChecker.check(paths)
        #expect(
            problems[paths[0]] == ["$.scenarios[0]: 'stratgy' does not match any of the regexes: '^x-'"],
            "\(problems[paths[0]] ?? [])")
        for (section, path) in zip(PlanSection.allCases, paths.dropFirst()) {
            let messages = problems[path] ?? []
            // Only keys of the plan's own (`x-…`, the schema's patternProperties) are free.
            #expect(
                messages.contains { $0.contains("'not_a_key' does not match any of the regexes: '^x-'") },
                "\(section.rawValue): \(messages)")
        }
    }

    @Test("the ConfigMap reader takes each literal block, dedented, and stops at the next key")
    func embeddedPlanReader() {
        let text = """
            data:
              a.yaml: |
                version: 1

                scenarios: []
              b.yml: |
                x: 1
            other: 2
            """
        let plans = Self.embeddedPlans(in: text)
        #expect(plans.map(\.name) == ["a.yaml", "b.yml"])
        #expect(plans.first?.text == "version: 1\n\nscenarios: []")
        #expect(plans.last?.text == "x: 1")
    }
}
