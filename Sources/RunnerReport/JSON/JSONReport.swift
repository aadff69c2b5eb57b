import Foundation
import RunnerResults
import RunnerVocabulary

/// The machine-readable report (schema: docs/json-report.md), written as the run goes: each
/// result's record is rendered as it finishes and kept in a spool beside the report; `finish`
/// writes the document around them, in plan order.
public final class JSONReport: StreamedReport {
    /// Version of the document's shape; bumped only when a field changes meaning or goes away.
    public static let formatVersion = 1

    private let target: ReportTarget
    private let redactor: Redactor
    private let plans: [PlanRecord]
    private let spool: ReportSpool
    /// Learns each record type's key order from its first record (see `JSONRecordEncoder`).
    private let encoder = JSONRecordEncoder()
    /// A connection's certificate and TLS session, rendered once for the results that share them.
    private let repeatedParts = RepeatedParts()
    /// Each record type's keys, rendered once.
    private let keyLines = RecordKeyLines()
    private var flaky = 0

    /// A report to be written to `path` for a run of `plans`; fails at once when nothing can
    /// be written beside `path`.
    public convenience init(path: String, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        try self.init(target: ReportTarget(path: path), plans: plans, redactor: redactor)
    }

    /// The same, for a path already judged and opened (`ReportTarget`).
    public init(target: ReportTarget, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        self.target = target
        self.redactor = redactor
        self.plans = plans.map { PlanRecord(file: redactor.redact($0.file), name: redactor.redact($0.name)) }
        spool = try ReportSpool(for: target)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    /// Results sit in `suites[…].results`, four containers deep.
    private static let resultDepth = 4

    private func add(_ result: ScenarioResult, at position: ResultPosition) {
        if result.isFlaky { flaky += 1 }
        spool.append(at: position) { bytes in
            JSONWriter.appending(to: &bytes, fragmentDepth: Self.resultDepth) { writer in
                writer.element()
                // Each result on a line of its own: what `jq -c`, `grep` and log tools read best,
                // and half the bytes of the indented form.
                writer.compact = true
                ResultRecord.write(
                    result, at: position, plan: plans[position.suite], redactor: redactor, encoder: encoder,
                    repeatedParts: repeatedParts, keyLines: keyLines, to: &writer)
            }
        }
    }

    /// Writes the whole document atomically: pretty-printed, keys sorted, as JSONEncoder would.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        try target.write { (output: inout FileOutput) throws(ReportWriteError) in
            var writer = JSONWriter()
            writer.open(.object)
            writer.key("runner")
            encoder.write(RunnerRecord(run), to: &writer)
            writer.key("suites")
            writer.open(.array)
            for (index, suite) in run.suites.enumerated() {
                writer.element()
                try writeSuite(suite, index: index, with: &writer, into: &output)
            }
            writer.close(.array)
            writer.key("summary")
            encoder.write(SummaryRecord(run, flaky: flaky), to: &writer)
            writer.close(.object)
            writer.endDocument()
            writer.drain(into: &output)
        }
    }

    /// A suite's record, its results copied from the spool where `results` goes. The members
    /// follow `SuiteRecord.CodingKeys` (declared in key order) through an exhaustive switch: a
    /// field added to the record is a key the compiler sends here.
    private func writeSuite(
        _ suite: SuiteResult, index: Int, with writer: inout JSONWriter, into output: inout FileOutput
    ) throws(ReportWriteError) {
        let header = SuiteRecord(withoutResults: suite, redactor: redactor)
        writer.open(.object)
        for key in SuiteRecord.CodingKeys.allCases {
            writer.key(key.stringValue)
            switch key {
            case .durationMs: writer.double(header.durationMs)
            case .file: writer.string(header.file)
            case .hostname: writer.string(header.hostname)
            case .name: writer.string(header.name)
            case .properties: encoder.write(header.properties, to: &writer)
            case .results:
                writer.open(.array)
                writer.drain(into: &output)
                if try spool.replay(suite: index, separator: [UInt8(ascii: ",")], into: &output) > 0 {
                    writer.containsSplicedMembers()
                }
                writer.close(.array)
            case .timestamp: writer.string(header.timestamp)
            }
        }
        writer.close(.object)
    }
}

// The records below are the report's own shapes around the results: the run, the summary, a
// suite, and a result's verdict. A result's evidence is not copied into a record of its own: the
// evidence records itself (`Evidence.record(into:)`, through `JSONRecordSink`) and reads itself
// back (`Evidence: Decodable`) over the same keys. `JSONRecordEncoder` writes the records that
// are `Encodable` (an absent optional as `null`, so every documented key is always present; keys
// sorted); CodingKeys (and the properties, for records without any) are declared in key order,
// so each member is written straight into place (a test holds every record here to it).
// A suite's record is written by `JSONReport.writeSuite` around the spooled results, member by
// member over its `CodingKeys`; a result's by `ResultRecord.write`, likewise.

/// The whole report as one value, as `runner merge` and the tests read it back.
struct Document: Decodable {
    var runner: RunnerRecord
    var suites: [SuiteRecord]
    var summary: SummaryRecord
}

struct RunnerRecord: Codable, Equatable {
    var durationMs: Double
    var formatVersion: Int
    var interrupted: Bool
    var interruptedBy: String?
    var name: String
    var shard: String?
    var startedAt: String
    /// Absent from reports written before the state file said how its writes went.
    var state: StateRecording?

    init(_ run: RunResult) {
        name = "runner"
        formatVersion = JSONReport.formatVersion
        startedAt = Format.timestamp(run.startedAt)
        durationMs = Format.millisecondsValue(run.duration)
        interrupted = run.interruptedBy != nil
        interruptedBy = run.interruptedBy.map(Format.signalName)
        shard = run.shard?.description
        state = run.stateRecording
    }

    enum CodingKeys: String, CodingKey {
        case durationMs = "duration_ms"
        case formatVersion = "format_version"
        case interrupted
        case interruptedBy = "interrupted_by"
        case name
        case shard
        case startedAt = "started_at"
        case state
    }

}

struct SummaryRecord: Codable, Equatable {
    var connectionsOpened: Int
    var durationMs: Double
    var errors: Int
    var failed: Int
    var flaky: Int
    var passed: Int
    var skipped: Int

    init(_ run: RunResult, flaky: Int) {
        let counts = run.counts
        passed = counts.passed
        failed = counts.failed
        errors = counts.errors
        skipped = counts.skipped
        self.flaky = flaky
        connectionsOpened = run.connectionsOpened
        durationMs = Format.millisecondsValue(run.duration)
    }

    enum CodingKeys: String, CodingKey {
        case connectionsOpened = "connections_opened"
        case durationMs = "duration_ms"
        case errors, failed, flaky, passed, skipped
    }
}

struct SuiteRecord: Decodable {
    var durationMs: Double
    var file: String
    var hostname: String
    var name: String
    var properties: [String: String]
    var results: [ResultRecord]
    var timestamp: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case durationMs = "duration_ms"
        case file, hostname, name, properties, results, timestamp
    }

    /// Every field but `results`, which stays empty.
    init(withoutResults suite: SuiteResult, redactor: Redactor) {
        name = redactor.redact(suite.plan.name)
        file = redactor.redact(suite.plan.file)
        timestamp = Format.timestamp(suite.startedAt)
        hostname = redactor.redact(suite.hostname)
        durationMs = Format.millisecondsValue(suite.duration)
        // An object reads best in jq; should a name repeat, its values are kept, joined by newlines.
        var properties: [String: String] = [:]
        for property in suite.properties {
            let key = redactor.redact(property.name)
            let value = redactor.redact(property.value)
            properties[key] = properties[key].map { $0 + "\n" + value } ?? value
        }
        self.properties = properties
        results = []
    }
}

struct PlanRecord: Codable, Equatable {
    var file: String
    var name: String

    enum CodingKeys: CodingKey, CaseIterable {
        case file, name
    }

    /// The record as the encoder would write it (keys in order), written on every result
    /// without its machinery.
    func write(to writer: inout JSONWriter) {
        writer.open(.object)
        for key in CodingKeys.allCases {
            writer.key(key.stringValue)
            switch key {
            case .file: writer.string(file)
            case .name: writer.string(name)
            }
        }
        writer.close(.object)
    }
}

/// A result as the report records it: its verdict and place, and its evidence (which records
/// itself). Read back by `runner merge` (`ScenarioResult.init(_:field:)`).
struct ResultRecord: Decodable {
    /// A flow step's lane, nearest predecessor first; `[]` for a scenario that runs after none
    /// (optional only to read reports written before flows).
    var after: [StepRecord]?
    var durationMs: Double
    var earlierAttempts: [AttemptRecord]
    var error: ErrorRecord?
    var evidence: Evidence
    var flaky: Bool
    var insecure: Bool
    var ip: String?
    var name: String
    var outcome: String
    var plan: PlanRecord
    var problems: [ProblemRecord]
    var scenario: String
    var scenarioIndex: Int
    var skippedReason: String?
    var strategy: String
    var tags: [String]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case after
        case durationMs = "duration_ms"
        case earlierAttempts = "earlier_attempts"
        case error, evidence, flaky, insecure, ip, name, outcome, plan, problems, scenario
        case scenarioIndex = "scenario_index"
        case skippedReason = "skipped_reason"
        case strategy, tags
    }

    /// Writes `result`'s record as the next value of `writer`: every key in order, through an
    /// exhaustive switch (a key added to the record is one the compiler sends here).
    static func write(
        _ result: borrowing ScenarioResult, at position: ResultPosition, plan: PlanRecord, redactor: Redactor,
        encoder: JSONRecordEncoder, repeatedParts: RepeatedParts = RepeatedParts(),
        keyLines: RecordKeyLines = RecordKeyLines(), to writer: inout JSONWriter
    ) {
        let verdict = OutcomeFields.of(result.outcome, redactor: redactor)
        writer.open(.object)
        let lines = keyLines.lines(of: CodingKeys.self, layout: writer.layout)
        for (index, key) in CodingKeys.allCases.enumerated() {
            writer.key(line: lines.line(index))
            switch key {
            // An empty list (nearly every result's) without the encoder's machinery.
            case .after where result.after.isEmpty, .earlierAttempts where result.earlierAttempts.isEmpty,
                .problems where verdict.problems.isEmpty:
                writer.open(.array)
                writer.close(.array)
            case .after: encoder.write(result.after.map { StepRecord($0, redactor: redactor) }, to: &writer)
            case .durationMs: writer.double(Format.millisecondsValue(result.duration))
            case .earlierAttempts:
                encoder.write(result.earlierAttempts.map { AttemptRecord($0, redactor: redactor) }, to: &writer)
            case .error:
                if let error = verdict.error { encoder.write(error, to: &writer) } else { writer.null() }
            case .evidence:
                var sink = JSONRecordSink(
                    writing: writer, redactor: redactor, reproducing: !result.outcome.isPassed, repeatedParts: repeatedParts,
                    keyLines: keyLines)
                result.evidence.record(into: &sink)
                writer = sink.finish()
            case .flaky: writer.bool(result.isFlaky)
            case .insecure: writer.bool(result.evidence.insecure)
            case .ip: writer.string(result.ip.map(redactor.redact))
            case .name:
                // Without secrets, written piece by piece (the name is not made); with them the
                // name is redacted whole (a secret may span two of its pieces).
                if redactor.isEmpty {
                    writer.string(pieces: { result.forEachDisplayNamePiece($0) })
                } else {
                    writer.string(redactor.redact(result.displayName))
                }
            case .outcome: writer.string(verdict.outcome)
            case .plan: plan.write(to: &writer)
            case .problems: encoder.write(verdict.problems, to: &writer)
            case .scenario: writer.string(redactor.redact(result.scenario))
            case .scenarioIndex: writer.int(position.scenario)
            case .skippedReason: writer.string(verdict.skippedReason)
            case .strategy: writer.string(redactor.redact(result.strategy.rawValue))
            case .tags:
                writer.open(.array)
                for tag in result.tags {
                    writer.element()
                    writer.string(redactor.redact(tag))
                }
                writer.close(.array)
            }
        }
        writer.close(.object)
    }
}

/// A result a flow step ran after: `{"scenario", "strategy", "ip"}`.
struct StepRecord: Codable, Equatable {
    var ip: String?
    var scenario: String
    var strategy: String

    init(_ step: ResultStep, redactor: Redactor) {
        scenario = redactor.redact(step.scenario)
        strategy = step.strategy.rawValue
        ip = step.ip.map(redactor.redact)
    }
}

/// The four keys that say how a result (or one of its attempts) came out.
enum OutcomeFields {
    static func of(
        _ outcome: Outcome, redactor: Redactor
    ) -> (outcome: String, problems: [ProblemRecord], error: ErrorRecord?, skippedReason: String?) {
        switch outcome {
        case .passed:
            return ("passed", [], nil, nil)
        case .failed(let list):
            let problems = list.map {
                ProblemRecord(
                    actual: redactor.redact($0.actual), expected: redactor.redact($0.expected), kind: $0.kind.rawValue,
                    subject: redactor.redact($0.subject))
            }
            return ("failed", problems, nil, nil)
        case .errored(let transferError):
            let error = ErrorRecord(
                diagnosis: transferError.diagnosis.map(redactor.redact), message: redactor.redact(transferError.message),
                type: transferError.kind.rawValue)
            return ("error", [], error, nil)
        case .skipped(let reason):
            return ("skipped", [], nil, redactor.redact(reason))
        }
    }
}

/// An attempt before the last one (`retries`).
struct AttemptRecord: Codable, Equatable {
    var durationMs: Double
    var error: ErrorRecord?
    var outcome: String
    var problems: [ProblemRecord]

    enum CodingKeys: String, CodingKey {
        case durationMs = "duration_ms"
        case error, outcome, problems
    }

    init(_ attempt: borrowing Attempt, redactor: Redactor) {
        (outcome, problems, error, _) = OutcomeFields.of(attempt.outcome, redactor: redactor)
        durationMs = Format.millisecondsValue(attempt.duration)
    }

}

struct ProblemRecord: Codable, Equatable {
    var actual: String
    var expected: String
    /// `expectation` or `scheduling` (`Problem.Kind`).
    var kind: String
    var subject: String

    init(actual: String, expected: String, kind: String, subject: String) {
        self.actual = actual
        self.expected = expected
        self.kind = kind
        self.subject = subject
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        actual = try container.decode(String.self, forKey: .actual)
        expected = try container.decode(String.self, forKey: .expected)
        // Missing only in reports written before scheduling checks: an expectation.
        kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? Problem.Kind.expectation.rawValue
        subject = try container.decode(String.self, forKey: .subject)
    }
}

struct ErrorRecord: Codable, Equatable {
    var diagnosis: String?
    var message: String
    var type: String

    enum CodingKeys: String, CodingKey {
        case diagnosis, message, type
    }

}
