import Foundation
import PlanFixtures
import Testing
@testable import RunnerReport
import RunnerResults

/// A run as the tests build it by hand: the run's figures and every plan's results in plan
/// order. The reports see it as they would see a real run: results handed over one at a time,
/// in an order other than the plan's (as parallel transfers finish), then `finish`.
struct RecordedRun {
    var suites: [RecordedSuite]
    var startedAt: Date
    var duration: Duration
    var interruptedBy: Int32? = nil
    var connectionsOpened = 0
    var stateRecording: StateRecording? = nil

    /// The run's summary, as the engine hands it to the reports.
    var result: RunResult {
        RunResult(
            suites: suites.map(\.result), startedAt: startedAt, duration: duration,
            interruptedBy: interruptedBy, connectionsOpened: connectionsOpened, stateRecording: stateRecording)
    }

    var plans: [PlanIdentity] { suites.map(\.plan) }
    var results: [[ScenarioResult]] { suites.map(\.results) }

    /// Every plan's results in plan order, each with its position (one scenario per result).
    var positionedResults: [[(ScenarioResult, ResultPosition)]] {
        suites.enumerated().map { suite, recorded in
            recorded.results.enumerated().map { ($1, ResultPosition(suite: suite, scenario: $0, slot: 0)) }
        }
    }

    /// Every result with its position, in a shuffled order (the same for every call).
    func arrivals() -> [(ScenarioResult, ResultPosition)] {
        // One scenario per result: the slot is 0, as with a single strategy and IP.
        var all = Array(positionedResults.joined())
        var random = SeededGenerator(seed: 0x5EED)
        all.shuffle(using: &random)
        return all
    }

    /// Feeds every result to `sink` as the engine would: a result that was interrupted comes
    /// last, as not run.
    func play(into sink: any ResultSink) {
        for (result, position) in arrivals() {
            if case .skipped(let reason) = result.outcome, reason == "interrupted" {
                continue
            }
            sink.finished(result, at: position)
        }
        for (result, position) in arrivals() {
            if case .skipped(let reason) = result.outcome, reason == "interrupted" {
                sink.notRun(result, at: position)
            }
        }
    }
}

struct RecordedSuite {
    var name: String
    var file: String
    var startedAt: Date
    var duration: Duration
    var hostname: String
    var properties: [Property]
    var results: [ScenarioResult]
    var httpdnsLookups: [HTTPDNSLookupResult] = []

    var plan: PlanIdentity { PlanIdentity(name: name, file: file) }

    var result: SuiteResult {
        SuiteResult(
            plan: plan, startedAt: startedAt, duration: duration, hostname: hostname, properties: properties,
            counts: results.reduce(OutcomeCounts()) { $0 + $1.outcome.counts }, httpdnsLookups: httpdnsLookups)
    }
}

/// The file a report wrote for a recorded run, through the streaming path.
enum RenderedReport {
    static func junit(_ run: RecordedRun, redactor: Redactor, verbose: Bool = false) throws -> String {
        try String(decoding: written { path in
            let report = try JUnitReport(path: path, plans: run.plans, redactor: redactor, verbose: verbose)
            run.play(into: report)
            try report.finish(run.result)
        }, as: UTF8.self)
    }

    static func json(_ run: RecordedRun, redactor: Redactor) throws -> Data {
        try written { path in
            let report = try JSONReport(path: path, plans: run.plans, redactor: redactor)
            run.play(into: report)
            try report.finish(run.result)
        }
    }

    /// - Parameter asOneScenario: each plan's results are the slots of one scenario (strategies ×
    ///   IPs), rather than a scenario each; handed over in reverse.
    static func html(_ run: RecordedRun, redactor: Redactor, asOneScenario: Bool = false) throws -> String {
        try String(decoding: written { path in
            let report = try HTMLReport(path: path, plans: run.plans, redactor: redactor)
            if asOneScenario {
                for (suite, recorded) in run.suites.enumerated() {
                    for (slot, result) in recorded.results.enumerated().reversed() {
                        report.finished(result, at: ResultPosition(suite: suite, scenario: 0, slot: slot))
                    }
                }
            } else {
                run.play(into: report)
            }
            try report.finish(run.result)
        }, as: UTF8.self)
    }

    /// The exposition `--metrics` writes for `run`, a one-shot run of runner 1.2.3.
    static func metrics(_ run: RecordedRun, redactor: Redactor) throws -> String {
        try String(decoding: written { path in
            let report = try MetricsReport(path: path, plans: run.plans, redactor: redactor, version: "1.2.3")
            run.play(into: report)
            try report.finish(run.result)
        }, as: UTF8.self)
    }

    /// The script `--curl` writes for `run`.
    static func curl(_ run: RecordedRun, redactor: Redactor) throws -> String {
        try String(decoding: written { path in
            let report = try CurlReport(path: path, plans: run.plans, redactor: redactor)
            run.play(into: report)
            try report.finish(run.result)
        }, as: UTF8.self)
    }

    static func consoleSummary(_ run: RecordedRun, formatter: ConsoleFormatter) -> String {
        let console = ConsoleReport(formatter: formatter, plans: run.plans) { _ in }
        run.play(into: console)
        return console.summary(for: run.result)
    }

    /// Runs `write` with a path in a fresh directory and returns what it left there.
    private static func written(_ write: (String) throws -> Void) throws -> Data {
        let directory = NSTemporaryDirectory() + "runner-report-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report"
        try write(path)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        guard left == ["report"] else { throw LeftBehind(files: left) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The report's directory held more than the report (a spool or temporary file left behind).
    struct LeftBehind: Error, CustomStringConvertible {
        var files: [String]
        var description: String { "the report's directory holds \(files)" }
    }
}

extension ConsoleFormatter {
    /// The summary a console report gives after seeing `run`'s results.
    func summary(for run: RecordedRun) -> String {
        RenderedReport.consoleSummary(run, formatter: self)
    }
}

extension RecordedRun {
    /// The run as `runner merge` reads it back from its JSON report `data`: each suite's
    /// results from their records (evidence included), the run's and the suites' own figures
    /// kept from this run.
    func readBack(_ data: Data) throws -> RecordedRun {
        let document = try JSONDecoder().decode(Document.self, from: data)
        var copy = self
        #expect(document.suites.count == suites.count)
        for (index, suite) in document.suites.enumerated() {
            copy.suites[index].results = try suite.results.enumerated().map { number, record in
                try ScenarioResult(record, field: "suites[\(index)].results[\(number)]")
            }
        }
        return copy
    }
}
