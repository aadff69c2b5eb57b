import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

extension String {
    /// The text as an HTML page's source holds it (`&`, `<`, `>` escaped).
    fileprivate var htmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// `--shard K/N` and `runner merge` end to end: the demo plan split three ways against the lab,
/// the parts' reports merged and compared with one whole run's.
@Suite("runner --shard and runner merge", .timeLimit(.minutes(5)))
struct ShardMergeTests {
    let cli = CLITests()

    /// A JSON report's results as (name, outcome), in the order written, and its summary.
    struct Report {
        var results: [(name: String, outcome: String, scenarioIndex: Int, scenario: String)]
        var summary: [String: Int]
        var shard: String?

        init(path: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let suites = try #require(document["suites"] as? [[String: Any]])
            results = try suites.flatMap { suite in
                try #require(suite["results"] as? [[String: Any]]).map { result in
                    (
                        try #require(result["name"] as? String), try #require(result["outcome"] as? String),
                        try #require(result["scenario_index"] as? Int), try #require(result["scenario"] as? String)
                    )
                }
            }
            let summary = try #require(document["summary"] as? [String: Any])
            self.summary = summary.compactMapValues { $0 as? Int }
            shard = (document["runner"] as? [String: Any])?["shard"] as? String
        }
    }

    @Test func threeShardsMergeIntoTheWholeRun() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        let whole = try await cli.runner(cli.demoArguments(lab) + ["--json", path("whole.json"), "-q"])
        #expect(whole.status == 1, "\(whole.stdout)\n\(whole.stderr)")
        var parts: [Report] = []
        for index in 1...3 {
            let output = try await cli.runner(cli.demoArguments(lab) + ["--shard", "\(index)/3", "--json", path("part-\(index).json"), "-q"])
            #expect([0, 1].contains(output.status), "\(output.stdout)\n\(output.stderr)")
            parts.append(try Report(path: path("part-\(index).json")))
        }
        let wholeReport = try Report(path: path("whole.json"))
        #expect(wholeReport.shard == nil)
        #expect(parts.map(\.shard) == ["1/3", "2/3", "3/3"])

        // Every result in exactly one part, and each scenario's results all in the same one.
        let partNames = parts.flatMap { $0.results.map(\.name) }
        #expect(partNames.count == Set(partNames).count, "a result ran in two shards")
        #expect(Set(partNames) == Set(wholeReport.results.map(\.name)))
        #expect(parts.allSatisfy { !$0.results.isEmpty }, "the 14 scenarios should spread over all three shards")
        for (index, part) in parts.enumerated() {
            let scenarios = Set(part.results.map(\.scenarioIndex))
            for other in parts.indices where other != index {
                #expect(scenarios.isDisjoint(with: parts[other].results.map(\.scenarioIndex)))
            }
        }

        let merged = try await cli.runner(
            ["merge", "--junit", path("merged.xml"), "--json", path("merged.json"), "--html", path("merged.html")]
                + (1...3).map { path("part-\($0).json") })
        #expect(merged.status == 1, "one result of the demo errors: \(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stdout == "20 passed, 0 failed, 1 errors\n", "\(merged.stdout)")
        #expect(merged.stderr.isEmpty, "\(merged.stderr)")
        let mergedReport = try Report(path: path("merged.json"))
        // Plan order, as one run writes it, and the same outcomes.
        #expect(mergedReport.results.map(\.name) == wholeReport.results.map(\.name))
        #expect(mergedReport.results.map(\.outcome) == wholeReport.results.map(\.outcome))
        for key in ["passed", "failed", "errors", "skipped", "flaky"] {
            #expect(mergedReport.summary[key] == wholeReport.summary[key], "\(key)")
        }
        #expect(mergedReport.summary["connections_opened"] == parts.reduce(0) { $0 + ($1.summary["connections_opened"] ?? 0) })
        #expect(mergedReport.shard == nil)

        let page = try String(contentsOfFile: path("merged.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"), "\(page.prefix(100))")
        // Every scenario is on the page, with as many results as the whole run has.
        for scenario in Set(wholeReport.results.map(\.scenario)) where !scenario.contains("'") {
            #expect(page.contains(">" + scenario.htmlEscaped + "<"), "\(scenario)")
        }

        let xml = try String(contentsOfFile: path("merged.xml"), encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"runner\" tests=\"21\" failures=\"0\" errors=\"1\""), "\(xml.prefix(300))")
        #expect(xml.contains("<error type=\"tls\""))
        let validation = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, path("merged.xml")])
        #expect(validation.status == 0, "\(validation.stderr)")

        // What cannot be merged: exit 2, the input and the reason named, nothing written.
        let refusals: [([String], String)] = [
            ([path("part-1.json"), path("part-2.json"), path("part-3.json"), path("part-1.json")],
             "error: merge: shard 1/3 is given twice: '\(path("part-1.json"))' and '\(path("part-1.json"))'\n"),
            ([path("part-1.json"), path("part-3.json")], "error: merge: shard 2/3 missing: the merged report would lack its results\n"),
            ([path("whole.json"), path("part-1.json")],
             "error: merge: '\(path("part-1.json"))' is shard 1/3 but '\(path("whole.json"))' is a whole run (no --shard): "
                + "merge joins the shards of one split (--shard K/N with the same N)\n"),
            ([path("whole.json"), path("whole.json")],
             "error: merge: result '\(wholeReport.results[0].name)' of plan 'lab' is in both '\(path("whole.json"))' and "
                + "'\(path("whole.json"))': each result must come from one report (was a shard given twice, or two runs mixed?)\n"),
            ([path("absent.json")], "error: merge: cannot read '\(path("absent.json"))': No such file or directory\n"),
            ([path("merged.xml")], "error: merge: '\(path("merged.xml"))' is a JUnit report; merge reads the shards' JSON reports "
                + "(run each shard with --json), which hold every result whole, and writes the merged JUnit from them (--junit)\n"),
        ]
        for (inputs, message) in refusals {
            let output = try await cli.runner(["merge", "--json", path("refused.json")] + inputs)
            #expect(output.status == 2, "\(inputs): \(output.stdout)\n\(output.stderr)")
            #expect(output.stderr == message)
            #expect(!FileManager.default.fileExists(atPath: path("refused.json")))
        }
    }

    @Test func aDocumentThatIsNotAReportIsNamedWithWhereItGoesWrong() async throws {
        let directory = try LabPlans.temporaryDirectory()
        let cases: [(String, String)] = [
            ("{\"a\": 1}", "is not a runner JSON report: the key 'runner' is missing\n"),
            ("not json", "not JSON"),
            ("{\"runner\": {\"format_version\": 2}}", "is a JSON report of format_version 2; this runner reads version 1"),
        ]
        for (number, (text, expected)) in cases.enumerated() {
            let input = directory.appendingPathComponent("input-\(number).json").path
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            let output = try await cli.runner(["merge", "--json", directory.appendingPathComponent("out.json").path, input])
            #expect(output.status == 2)
            #expect(output.stderr.contains(expected), "\(output.stderr)")
        }
    }

    @Test func aShardWithNothingOfAPlanRunsNothingAndPasses() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write(
            """
            version: 1
            name: one
            defaults: {domains: fixed}
            domains:
              fixed:
                static: {api.lab.test: [127.0.0.2]}
            scenarios:
              - name: only
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
            """, lab: lab)
        var statuses: [Int32] = []
        var ran = 0
        for index in 1...4 {
            let output = try await cli.runner([plan, "--shard", "\(index)/4"])
            statuses.append(output.status)
            if output.stdout.hasSuffix("1 passed, 0 failed, 0 errors\n") { ran += 1 }
            #expect(output.stderr.isEmpty, "\(output.stderr)")
        }
        #expect(statuses == [0, 0, 0, 0])
        #expect(ran == 1, "the one scenario runs in exactly one of the four shards")
    }

    @Test(arguments: ["0/3", "4/3", "3", "1/0", "a/b", "1/3/5", "-1/3", "1/10001"])
    func aShardThatIsNotKOfNIsRefused(_ value: String) async throws {
        let lab = try await SharedLab.get()
        let output = try await cli.runner(cli.demoArguments(lab) + ["--shard=\(value)"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--shard takes K/N, a part K of N parts with 1 ≤ K ≤ N ≤ 10000 (e.g. 2/4), got '\(value)'"), "\(output.stderr)")
    }

    @Test func mergeWantsReportsAndAnOutput() async throws {
        let none = try await cli.runner(["merge", "--json", "/tmp/x.json"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("give the JSON reports to merge"))
        let nothingToWrite = try await cli.runner(["merge", "a.json"])
        #expect(nothingToWrite.status == 2)
        #expect(nothingToWrite.stderr.contains("give --junit FILE, --json FILE, --html FILE or several: what to write"))
    }
}
