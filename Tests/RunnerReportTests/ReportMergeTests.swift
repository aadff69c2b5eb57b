import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults

/// `ReportMerge` without the command line: a report read back is the run it was written from,
/// and every input it refuses is named with what is wrong.
@Suite("Merging JSON reports", .timeLimit(.minutes(1)))
struct ReportMergeTests {
    let original: Data

    init() throws {
        original = try RenderedReport.json(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor)
    }

    /// The merged run written again through the report writers.
    static func rewritten(_ merged: MergedRun, json: Bool) throws -> Data {
        let directory = NSTemporaryDirectory() + "runner-merge-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report"
        let redactor = Redactor(secrets: [])
        let report: any StreamedReport =
            json
            ? try JSONReport(path: path, plans: merged.plans, redactor: redactor)
            : try JUnitReport(path: path, plans: merged.plans, redactor: redactor)
        for (result, position) in merged.results { report.finished(result, at: position) }
        try report.finish(merged.run)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The fixture's report as an object to change, and back to bytes.
    func edited(_ change: (inout [String: Any]) throws -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        try change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func shard(_ notation: String) throws -> Data {
        try edited { object in
            var runner = try #require(object["runner"] as? [String: Any])
            runner["shard"] = notation
            object["runner"] = runner
        }
    }

    /// Every value the report holds comes back: merging one whole run's report writes the same
    /// bytes (hostile text, masked secrets, every outcome, retries, certificates, the interruption).
    @Test func oneReportMergedIsTheSameReport() throws {
        let merged = try ReportMerge.merge([ReportInput(path: "whole.json", bytes: original)])
        let again = try Self.rewritten(merged, json: true)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: original, as: UTF8.self))
    }

    /// The JUnit written from a merged report is the run's own JUnit, but for what the JSON report
    /// does not keep: the order of a suite's properties (a JSON object's keys are sorted).
    @Test func theJUnitOfAMergedReportIsTheRunsJUnit() throws {
        let merged = try ReportMerge.merge([ReportInput(path: "whole.json", bytes: original)])
        let junit = String(decoding: try Self.rewritten(merged, json: false), as: UTF8.self)
        let direct = try RenderedReport.junit(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor)
        func withoutProperties(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.contains("<property ") }
        }
        #expect(withoutProperties(junit) == withoutProperties(direct))
        let properties = { (text: String) in text.split(separator: "\n").filter { $0.contains("<property ") }.sorted() }
        #expect(properties(junit) == properties(direct))
    }

    @Test func theShardsOfOneSplitMustAllBeThereOnce() throws {
        let one = ReportInput(path: "a.json", bytes: try shard("1/3"))
        let oneAgain = ReportInput(path: "b.json", bytes: try shard("1/3"))
        let two = ReportInput(path: "c.json", bytes: try shard("2/4"))
        let whole = ReportInput(path: "w.json", bytes: original)
        let cases: [([ReportInput], String)] = [
            ([one], "shards 2/3, 3/3 missing: the merged report would lack their results"),
            ([one, oneAgain], "shard 1/3 is given twice: 'a.json' and 'b.json'"),
            ([one, two], "'c.json' is shard 2/4 but 'a.json' is shard 1/3: merge joins the shards of one split (--shard K/N with the same N)"),
            ([whole, one], "'a.json' is shard 1/3 but 'w.json' is a whole run (no --shard): merge joins the shards of one split (--shard K/N with the same N)"),
        ]
        for (inputs, message) in cases {
            #expect(throws: MergeError.self) { try ReportMerge.merge(inputs) }
            do {
                _ = try ReportMerge.merge(inputs)
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func aValueNoRunnerWritesIsNamedWithItsPlace() throws {
        let cases: [(Data, String)] = [
            (try edited { object in
                var suites = try #require(object["suites"] as? [[String: Any]])
                var results = try #require(suites[0]["results"] as? [[String: Any]])
                results[1]["strategy"] = "sideways"
                suites[0]["results"] = results
                object["suites"] = suites
            }, "'r.json' is not a runner JSON report: at suites[0].results[1].strategy: unknown strategy 'sideways'"),
            (try edited { object in
                var suites = try #require(object["suites"] as? [[String: Any]])
                var results = try #require(suites[0]["results"] as? [[String: Any]])
                results[0].removeValue(forKey: "scenario_index")
                suites[0]["results"] = results
                object["suites"] = suites
            }, "'r.json' is not a runner JSON report: at suites[0].results[0]: the key 'scenario_index' is missing"),
            (try edited { object in
                var suites = try #require(object["suites"] as? [[String: Any]])
                suites[0]["timestamp"] = "yesterday"
                object["suites"] = suites
            }, "'r.json' is not a runner JSON report: at suites[0].timestamp: 'yesterday' is not a date in the form 2024-05-01T10:00:00Z"),
            (try edited { object in object["summary"] = 3 }, "'r.json' is not a runner JSON report: at summary: expected an object or a list"),
            (try shard("2 of 3"), "'r.json' is not a runner JSON report: at runner.shard: '2 of 3' is not K/N"),
        ]
        for (bytes, message) in cases {
            do {
                _ = try ReportMerge.merge([ReportInput(path: "r.json", bytes: bytes)])
                Issue.record("merged: \(message)")
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
