import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults

/// A run whose state file did not take every answer says so in every report: the console's
/// summary, the JSON report's `runner.state` (kept by `runner merge`), and the metrics'
/// `runner_state_*` series. (The JUnit property comes from the engine: StateFullDiskTests.)
@Suite("Reports of a state file that did not record", .timeLimit(.minutes(1)))
struct StateRecordingReportTests {
    static let notRecorded = Fixture.stateNotRecorded

    static func run(_ recording: StateRecording?) -> RecordedRun {
        var run = Fixture.run()
        run.stateRecording = recording
        return run
    }

    @Test func theSummarySaysWhichAnswersAndWhy() {
        let said = "state file '/var/lib/runner/state.db' did not record 2 answers (tencent api.example.com, ali cdn.example.com as "
            + "gd-mobile): the disk is full (database or disk is full)"
        #expect(Self.notRecorded.summary() == said)
        let console = ConsoleFormatter(color: false, verbosity: .normal, redactor: Fixture.redactor)
        let summary = console.summary(for: Self.run(Self.notRecorded).result, tally: ConsoleTally())
        #expect(summary.contains("STATE NOT RECORDED: \(said)\n"), "\(summary)")
        // A run whose answers all went in says nothing of it.
        let recorded = console.summary(for: Self.run(StateRecording(file: "/var/lib/runner/state.db")).result, tally: ConsoleTally())
        #expect(!recorded.contains("STATE"), "\(recorded)")
        // Many answers are counted, the first ten named.
        var many = StateRecording(file: "s.db")
        many.add(problem: "an I/O error (disk I/O error)", notRecorded: (1...12).map {
            AnswerKey(plan: "p", map: "m", host: "h\($0).example.com", client: nil)
        })
        #expect(many.summary().hasPrefix("state file 's.db' did not record 12 answers (m h1.example.com, "))
        #expect(many.summary().hasSuffix("m h10.example.com, and 2 more): an I/O error (disk I/O error)"))
    }

    @Test func theJSONReportListsThemAndMergeKeepsThem() throws {
        let data = try RenderedReport.json(Self.run(Self.notRecorded), redactor: Fixture.redactor)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("""
                "state" : {
                  "file" : "/var/lib/runner/state.db",
                  "not_recorded" : [
                    {
                      "client" : null,
                      "host" : "api.example.com",
                      "map" : "tencent",
                      "plan" : "prod.eu"
                    },
                    {
                      "client" : "gd-mobile",
                      "host" : "cdn.example.com",
                      "map" : "ali",
                      "plan" : "prod.eu"
                    }
                  ],
                  "problems" : [
                    "the disk is full (database or disk is full)"
                  ],
                  "recorded" : false
                }
            """), "\(text)")
        // Merged alone, the report is the same; merged with another shard's, both shards' answers.
        let merged = try ReportMerge.merge([ReportInput(path: "whole.json", bytes: data)])
        #expect(merged.run.stateRecording == Self.notRecorded)
        #expect(try ReportMergeTests.rewritten(merged, json: true) == data)
        let other = StateRecording(
            file: "/var/lib/runner/state.db", problems: ["locked by another process for too long (database is locked)"],
            notRecorded: [AnswerKey(plan: "staging", map: "ali", host: "api.example.com", client: nil)])
        // Two runs of one plan each (`runner merge` of whole runs), each with its state.
        func part(_ suite: RecordedSuite, _ recording: StateRecording) throws -> Data {
            var run = Self.run(recording)
            run.suites = [suite]
            return try RenderedReport.json(run, redactor: Fixture.redactor)
        }
        let both = try ReportMerge.merge([
            ReportInput(path: "1.json", bytes: try part(Fixture.prod, Self.notRecorded)),
            ReportInput(path: "2.json", bytes: try part(Fixture.staging, other)),
        ])
        #expect(both.run.stateRecording?.problems == Self.notRecorded.problems + other.problems)
        #expect(both.run.stateRecording?.notRecorded == Self.notRecorded.notRecorded + other.notRecorded)
        // Without a state file: null; and a report written before `state` existed still merges.
        let without = try RenderedReport.json(Self.run(nil), redactor: Fixture.redactor)
        #expect(String(decoding: without, as: UTF8.self).contains("\"state\" : null"))
        var object = try #require(try JSONSerialization.jsonObject(with: without) as? [String: Any])
        var runner = try #require(object["runner"] as? [String: Any])
        runner.removeValue(forKey: "state")
        object["runner"] = runner
        let older = try JSONSerialization.data(withJSONObject: object)
        #expect(try ReportMerge.merge([ReportInput(path: "older.json", bytes: older)]).run.stateRecording == nil)
    }

    @Test func theMetricsCountTheFailureAndTheLastSuccess() throws {
        let failed = try RenderedReport.metrics(Self.run(Self.notRecorded), redactor: Fixture.redactor)
        #expect(failed.contains("""
            # HELP runner_state_write_failures_total Cycles whose HTTPDNS answers the state file (--state) could not all record.
            # TYPE runner_state_write_failures_total counter
            runner_state_write_failures_total 1

            """), "\(failed)")
        #expect(!failed.contains("runner_state_last_write_success_timestamp_seconds"), "no success yet")
        let recorded = try RenderedReport.metrics(Self.run(StateRecording(file: "s.db")), redactor: Fixture.redactor)
        let end = Fixture.start.addingTimeInterval(2.5).timeIntervalSince1970
        #expect(recorded.contains("runner_state_write_failures_total 0\n"), "\(recorded)")
        let lastSuccess = recorded.split(separator: "\n").first { $0.hasPrefix("runner_state_last_write_success_timestamp_seconds ") }
        #expect(lastSuccess.flatMap { Double($0.split(separator: " ")[1]) } == end, "\(recorded)")
        // Without --state, no series.
        let without = try RenderedReport.metrics(Self.run(nil), redactor: Fixture.redactor)
        #expect(!without.contains("runner_state_"))
    }

    /// serve's bookkeeping: each failed cycle counts once, the last success stays while
    /// failing, and the first cycle that records again says so once.
    @Test func cyclesAreCountedAndTheRecoveryIsSaidOnce() {
        var health = StateWriteHealth()
        let recorded = StateRecording(file: "s.db")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var recoveries: [Bool] = []
        for (recording, minute) in [(recorded, 0.0), (Self.notRecorded, 1), (Self.notRecorded, 2)] {
            recoveries.append(health.count(recording, endedAt: start.addingTimeInterval(minute * 60)))
        }
        #expect(health == StateWriteHealth(failuresTotal: 2, lastSuccess: start, lastProblem: Self.notRecorded.summary()))
        for minute in [3.0, 4] { recoveries.append(health.count(recorded, endedAt: start.addingTimeInterval(minute * 60))) }
        #expect(recoveries == [false, false, false, true, false])
        #expect(health == StateWriteHealth(failuresTotal: 2, lastSuccess: start.addingTimeInterval(240), lastProblem: nil))
    }
}
