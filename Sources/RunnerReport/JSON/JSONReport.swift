import Foundation
import RunnerResults

/// The machine-readable report (schema: docs/json-report.md), written as the run goes: each
/// result's record is rendered as it finishes and kept in a spool beside the report; `finish`
/// writes the document around them, in plan order.
public final class JSONReport: StreamedReport {
    /// Version of the document's shape; bumped only when a field changes meaning or goes away.
    public static let formatVersion = 1

    private let path: String
    private let redactor: Redactor
    private let plans: [PlanRecord]
    private let spool: ReportSpool
    private var flaky = 0

    /// A report to be written to `path` for a run of `plans`; fails at once when nothing can
    /// be written beside `path`.
    public init(path: String, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        self.path = path
        self.redactor = redactor
        self.plans = plans.map { PlanRecord(name: redactor.redact($0.name), file: redactor.redact($0.file)) }
        spool = try ReportSpool(beside: path)
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
        var writer = JSONWriter(fragmentDepth: Self.resultDepth)
        writer.element()
        ResultRecord(result, plan: plans[position.suite], redactor: redactor).write(to: &writer)
        spool.append(writer.take(), at: position)
    }

    /// Writes the whole document atomically: pretty-printed, keys sorted, as JSONEncoder would.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        try AtomicFile.write(to: path) { (output: inout FileOutput) throws(ReportWriteError) in
            var writer = JSONWriter()
            writer.open(.object)
            writer.key("runner")
            RunnerRecord(run).write(to: &writer)
            writer.key("suites")
            writer.open(.array)
            for (index, suite) in run.suites.enumerated() {
                writer.element()
                try writeSuite(suite, index: index, with: &writer, into: &output)
            }
            writer.close()
            writer.key("summary")
            SummaryRecord(run, flaky: flaky).write(to: &writer)
            writer.close()
            var tail = writer.take()
            tail.append(UInt8(ascii: "\n"))
            output.write(tail)
        }
    }

    /// A suite's record, its results copied from the spool where `results` goes.
    private func writeSuite(
        _ suite: SuiteResult, index: Int, with writer: inout JSONWriter, into output: inout FileOutput
    ) throws(ReportWriteError) {
        let header = SuiteRecord(withoutResults: suite, redactor: redactor)
        writer.open(.object)
        writer.key("duration_ms"); writer.double(header.durationMs)
        writer.key("file"); writer.string(header.file)
        writer.key("hostname"); writer.string(header.hostname)
        writer.key("name"); writer.string(header.name)
        writer.key("properties")
        writer.object { writer in
            for (key, value) in header.properties.sorted(by: { $0.key < $1.key }) {
                writer.key(key); writer.string(value)
            }
        }
        writer.key("results")
        writer.open(.array)
        output.write(writer.take())
        if try spool.replay(suite: index, separator: [UInt8(ascii: ",")], into: &output) > 0 {
            writer.containsSplicedMembers()
        }
        writer.close()
        writer.key("timestamp"); writer.string(header.timestamp)
        writer.close()
    }
}

// The records below mirror RunnerResults in the report's own vocabulary. Optional fields are
// written as explicit `null` (not left out), so every documented key is always present.
// `JSONReport` writes them with `JSONWriter` (the extensions at the end); their Codable form is
// what the tests read reports back into, and hold the written bytes to.

/// The whole report as one value, as the tests read it back.
struct Document: Codable, Equatable {
    var runner: RunnerRecord
    var summary: SummaryRecord
    var suites: [SuiteRecord]

    /// The document a run with these results (per suite, in plan order) should come to.
    init(_ run: RunResult, results: [[ScenarioResult]], redactor: Redactor) {
        runner = RunnerRecord(run)
        let flaky = results.joined().lazy.filter(\.isFlaky).count
        summary = SummaryRecord(run, flaky: flaky)
        suites = zip(run.suites, results).map { SuiteRecord($0, results: $1, redactor: redactor) }
    }
}

struct RunnerRecord: Codable, Equatable {
    var name: String
    var formatVersion: Int
    var startedAt: String
    var durationMs: Double
    var interrupted: Bool
    var interruptedBy: String?

    init(_ run: RunResult) {
        name = "runner"
        formatVersion = JSONReport.formatVersion
        startedAt = Format.timestamp(run.startedAt)
        durationMs = Format.millisecondsValue(run.duration)
        interrupted = run.interruptedBy != nil
        interruptedBy = run.interruptedBy.map(Format.signalName)
    }

    enum CodingKeys: String, CodingKey {
        case name
        case formatVersion = "format_version"
        case startedAt = "started_at"
        case durationMs = "duration_ms"
        case interrupted
        case interruptedBy = "interrupted_by"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(formatVersion, forKey: .formatVersion)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(interrupted, forKey: .interrupted)
        try c.encode(interruptedBy, forKey: .interruptedBy)
    }
}

struct SummaryRecord: Codable, Equatable {
    var passed: Int
    var failed: Int
    var errors: Int
    var skipped: Int
    var flaky: Int
    var connectionsOpened: Int
    var durationMs: Double

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
        case passed, failed, errors, skipped, flaky
        case connectionsOpened = "connections_opened"
        case durationMs = "duration_ms"
    }
}

struct SuiteRecord: Codable, Equatable {
    var name: String
    var file: String
    var timestamp: String
    var hostname: String
    var durationMs: Double
    var properties: [String: String]
    var results: [ResultRecord]

    enum CodingKeys: String, CodingKey {
        case name, file, timestamp, hostname
        case durationMs = "duration_ms"
        case properties, results
    }

    init(_ suite: SuiteResult, results: [ScenarioResult], redactor: Redactor) {
        self.init(withoutResults: suite, redactor: redactor)
        let plan = PlanRecord(name: name, file: file)
        self.results = results.map { ResultRecord($0, plan: plan, redactor: redactor) }
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
    var name: String
    var file: String
}

struct ResultRecord: Codable, Equatable {
    var name: String
    var plan: PlanRecord
    var scenario: String
    var strategy: String
    var ip: String?
    var tags: [String]
    var outcome: String
    var problems: [ProblemRecord]
    var error: ErrorRecord?
    var skippedReason: String?
    var insecure: Bool
    var flaky: Bool
    var earlierAttempts: [AttemptRecord]
    var durationMs: Double
    var evidence: EvidenceRecord

    enum CodingKeys: String, CodingKey {
        case name, plan, scenario, strategy, ip, tags, outcome, problems, error
        case skippedReason = "skipped_reason"
        case insecure, flaky
        case earlierAttempts = "earlier_attempts"
        case durationMs = "duration_ms"
        case evidence
    }

    init(_ result: ScenarioResult, plan: PlanRecord, redactor: Redactor) {
        name = redactor.redact(result.displayName)
        self.plan = plan
        scenario = redactor.redact(result.scenario)
        strategy = redactor.redact(result.strategy)
        ip = result.ip.map(redactor.redact)
        tags = result.tags.map(redactor.redact)
        (outcome, problems, error, skippedReason) = OutcomeFields.of(result.outcome, redactor: redactor)
        insecure = result.evidence.insecure
        flaky = result.isFlaky
        earlierAttempts = result.earlierAttempts.map { AttemptRecord($0, redactor: redactor) }
        durationMs = Format.millisecondsValue(result.duration)
        evidence = EvidenceRecord(result.evidence, redactor: redactor)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(plan, forKey: .plan)
        try c.encode(scenario, forKey: .scenario)
        try c.encode(strategy, forKey: .strategy)
        try c.encode(ip, forKey: .ip)
        try c.encode(tags, forKey: .tags)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(problems, forKey: .problems)
        try c.encode(error, forKey: .error)
        try c.encode(skippedReason, forKey: .skippedReason)
        try c.encode(insecure, forKey: .insecure)
        try c.encode(flaky, forKey: .flaky)
        try c.encode(earlierAttempts, forKey: .earlierAttempts)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(evidence, forKey: .evidence)
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
                    subject: redactor.redact($0.subject), expected: redactor.redact($0.expected),
                    actual: redactor.redact($0.actual))
            }
            return ("failed", problems, nil, nil)
        case .errored(let transferError):
            let error = ErrorRecord(
                type: transferError.kind.rawValue, message: redactor.redact(transferError.message),
                diagnosis: transferError.diagnosis.map(redactor.redact))
            return ("error", [], error, nil)
        case .skipped(let reason):
            return ("skipped", [], nil, redactor.redact(reason))
        }
    }
}

/// An attempt before the last one (`retries`).
struct AttemptRecord: Codable, Equatable {
    var outcome: String
    var problems: [ProblemRecord]
    var error: ErrorRecord?
    var durationMs: Double

    enum CodingKeys: String, CodingKey {
        case outcome, problems, error
        case durationMs = "duration_ms"
    }

    init(_ attempt: Attempt, redactor: Redactor) {
        (outcome, problems, error, _) = OutcomeFields.of(attempt.outcome, redactor: redactor)
        durationMs = Format.millisecondsValue(attempt.duration)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(problems, forKey: .problems)
        try c.encode(error, forKey: .error)
        try c.encode(durationMs, forKey: .durationMs)
    }
}

struct ProblemRecord: Codable, Equatable {
    var subject: String
    var expected: String
    var actual: String
}

struct ErrorRecord: Codable, Equatable {
    var type: String
    var message: String
    var diagnosis: String?

    enum CodingKeys: String, CodingKey {
        case type, message, diagnosis
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(message, forKey: .message)
        try c.encode(diagnosis, forKey: .diagnosis)
    }
}

struct EvidenceRecord: Codable, Equatable {
    var ipSource: String
    var notes: [String]
    var hops: [HopRecord]

    enum CodingKeys: String, CodingKey {
        case ipSource = "ip_source"
        case notes, hops
    }

    init(_ evidence: Evidence, redactor: Redactor) {
        ipSource = redactor.redact(evidence.ipSource)
        notes = evidence.notes.map(redactor.redact)
        hops = evidence.hops.map { HopRecord($0, redactor: redactor) }
    }
}

struct HopRecord: Codable, Equatable {
    var method: String
    var originalURL: String
    var urlSent: String
    var hostHeader: String
    var sni: String?
    var pinnedIP: String?
    var connectedIP: String?
    var connectedPort: Int?
    var httpVersion: String?
    var status: Int?
    var certificate: CertificateRecord?
    var timings: TimingsRecord
    var newConnection: Bool?
    var bodyLength: Int?
    var bodySHA256: String?

    enum CodingKeys: String, CodingKey {
        case method
        case originalURL = "original_url"
        case urlSent = "url_sent"
        case hostHeader = "host_header"
        case sni
        case pinnedIP = "pinned_ip"
        case connectedIP = "connected_ip"
        case connectedPort = "connected_port"
        case httpVersion = "http_version"
        case status, certificate, timings
        case newConnection = "new_connection"
        case bodyLength = "body_length"
        case bodySHA256 = "body_sha256"
    }

    init(_ hop: HopEvidence, redactor: Redactor) {
        method = redactor.redact(hop.method)
        originalURL = redactor.redact(hop.originalURL)
        urlSent = redactor.redact(hop.urlSent)
        hostHeader = redactor.redact(hop.hostHeader)
        sni = hop.sni.map(redactor.redact)
        pinnedIP = hop.pinnedIP.map(redactor.redact)
        connectedIP = hop.connectedIP.map(redactor.redact)
        connectedPort = hop.connectedPort
        httpVersion = hop.httpVersion.map(redactor.redact)
        status = hop.status
        certificate = hop.certificate.map { CertificateRecord($0, redactor: redactor) }
        timings = TimingsRecord(hop.timings)
        newConnection = hop.newConnection
        bodyLength = hop.bodyLength
        bodySHA256 = hop.bodySHA256.map(redactor.redact)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method, forKey: .method)
        try c.encode(originalURL, forKey: .originalURL)
        try c.encode(urlSent, forKey: .urlSent)
        try c.encode(hostHeader, forKey: .hostHeader)
        try c.encode(sni, forKey: .sni)
        try c.encode(pinnedIP, forKey: .pinnedIP)
        try c.encode(connectedIP, forKey: .connectedIP)
        try c.encode(connectedPort, forKey: .connectedPort)
        try c.encode(httpVersion, forKey: .httpVersion)
        try c.encode(status, forKey: .status)
        try c.encode(certificate, forKey: .certificate)
        try c.encode(timings, forKey: .timings)
        try c.encode(newConnection, forKey: .newConnection)
        try c.encode(bodyLength, forKey: .bodyLength)
        try c.encode(bodySHA256, forKey: .bodySHA256)
    }
}

struct CertificateRecord: Codable, Equatable {
    var subject: String
    var issuer: String
    var notAfter: String?
    var subjectAltNames: [String]

    enum CodingKeys: String, CodingKey {
        case subject, issuer
        case notAfter = "not_after"
        case subjectAltNames = "subject_alt_names"
    }

    init(_ certificate: CertificateSummary, redactor: Redactor) {
        subject = redactor.redact(certificate.subject)
        issuer = redactor.redact(certificate.issuer)
        notAfter = certificate.notAfter.map(Format.timestamp)
        subjectAltNames = certificate.subjectAltNames.map(redactor.redact)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subject, forKey: .subject)
        try c.encode(issuer, forKey: .issuer)
        try c.encode(notAfter, forKey: .notAfter)
        try c.encode(subjectAltNames, forKey: .subjectAltNames)
    }
}

struct TimingsRecord: Codable, Equatable {
    var resolveMs: Double?
    var connectMs: Double?
    var tlsMs: Double?
    var firstByteMs: Double?
    var totalMs: Double?

    enum CodingKeys: String, CodingKey {
        case resolveMs = "resolve_ms"
        case connectMs = "connect_ms"
        case tlsMs = "tls_ms"
        case firstByteMs = "first_byte_ms"
        case totalMs = "total_ms"
    }

    init(_ timings: Timings) {
        resolveMs = timings.resolve.map(Format.millisecondsValue)
        connectMs = timings.connect.map(Format.millisecondsValue)
        tlsMs = timings.tls.map(Format.millisecondsValue)
        firstByteMs = timings.firstByte.map(Format.millisecondsValue)
        totalMs = timings.total.map(Format.millisecondsValue)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(resolveMs, forKey: .resolveMs)
        try c.encode(connectMs, forKey: .connectMs)
        try c.encode(tlsMs, forKey: .tlsMs)
        try c.encode(firstByteMs, forKey: .firstByteMs)
        try c.encode(totalMs, forKey: .totalMs)
    }
}

// MARK: Writing, keys in sorted order (JSONWriterTests holds the bytes to JSONEncoder's)

extension RunnerRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("duration_ms"); writer.double(durationMs)
            writer.key("format_version"); writer.int(formatVersion)
            writer.key("interrupted"); writer.bool(interrupted)
            writer.key("interrupted_by"); writer.string(interruptedBy)
            writer.key("name"); writer.string(name)
            writer.key("started_at"); writer.string(startedAt)
        }
    }
}

extension SummaryRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("connections_opened"); writer.int(connectionsOpened)
            writer.key("duration_ms"); writer.double(durationMs)
            writer.key("errors"); writer.int(errors)
            writer.key("failed"); writer.int(failed)
            writer.key("flaky"); writer.int(flaky)
            writer.key("passed"); writer.int(passed)
            writer.key("skipped"); writer.int(skipped)
        }
    }
}

extension PlanRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("file"); writer.string(file)
            writer.key("name"); writer.string(name)
        }
    }
}

extension ResultRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("duration_ms"); writer.double(durationMs)
            writer.key("earlier_attempts"); writer.array(earlierAttempts) { writer, attempt in attempt.write(to: &writer) }
            writer.key("error"); ErrorRecord.write(error, to: &writer)
            writer.key("evidence"); evidence.write(to: &writer)
            writer.key("flaky"); writer.bool(flaky)
            writer.key("insecure"); writer.bool(insecure)
            writer.key("ip"); writer.string(ip)
            writer.key("name"); writer.string(name)
            writer.key("outcome"); writer.string(outcome)
            writer.key("plan"); plan.write(to: &writer)
            writer.key("problems"); writer.array(problems) { writer, problem in problem.write(to: &writer) }
            writer.key("scenario"); writer.string(scenario)
            writer.key("skipped_reason"); writer.string(skippedReason)
            writer.key("strategy"); writer.string(strategy)
            writer.key("tags"); writer.array(tags)
        }
    }
}

extension AttemptRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("duration_ms"); writer.double(durationMs)
            writer.key("error"); ErrorRecord.write(error, to: &writer)
            writer.key("outcome"); writer.string(outcome)
            writer.key("problems"); writer.array(problems) { writer, problem in problem.write(to: &writer) }
        }
    }
}

extension ProblemRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("actual"); writer.string(actual)
            writer.key("expected"); writer.string(expected)
            writer.key("subject"); writer.string(subject)
        }
    }
}

extension ErrorRecord {
    static func write(_ error: ErrorRecord?, to writer: inout JSONWriter) {
        guard let error else { return writer.null() }
        writer.object { writer in
            writer.key("diagnosis"); writer.string(error.diagnosis)
            writer.key("message"); writer.string(error.message)
            writer.key("type"); writer.string(error.type)
        }
    }
}

extension EvidenceRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("hops"); writer.array(hops) { writer, hop in hop.write(to: &writer) }
            writer.key("ip_source"); writer.string(ipSource)
            writer.key("notes"); writer.array(notes)
        }
    }
}

extension HopRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("body_length"); writer.int(bodyLength)
            writer.key("body_sha256"); writer.string(bodySHA256)
            writer.key("certificate"); CertificateRecord.write(certificate, to: &writer)
            writer.key("connected_ip"); writer.string(connectedIP)
            writer.key("connected_port"); writer.int(connectedPort)
            writer.key("host_header"); writer.string(hostHeader)
            writer.key("http_version"); writer.string(httpVersion)
            writer.key("method"); writer.string(method)
            writer.key("new_connection"); writer.bool(newConnection)
            writer.key("original_url"); writer.string(originalURL)
            writer.key("pinned_ip"); writer.string(pinnedIP)
            writer.key("sni"); writer.string(sni)
            writer.key("status"); writer.int(status)
            writer.key("timings"); timings.write(to: &writer)
            writer.key("url_sent"); writer.string(urlSent)
        }
    }
}

extension CertificateRecord {
    static func write(_ certificate: CertificateRecord?, to writer: inout JSONWriter) {
        guard let certificate else { return writer.null() }
        writer.object { writer in
            writer.key("issuer"); writer.string(certificate.issuer)
            writer.key("not_after"); writer.string(certificate.notAfter)
            writer.key("subject"); writer.string(certificate.subject)
            writer.key("subject_alt_names"); writer.array(certificate.subjectAltNames)
        }
    }
}

extension TimingsRecord {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("connect_ms"); writer.double(connectMs)
            writer.key("first_byte_ms"); writer.double(firstByteMs)
            writer.key("resolve_ms"); writer.double(resolveMs)
            writer.key("tls_ms"); writer.double(tlsMs)
            writer.key("total_ms"); writer.double(totalMs)
        }
    }
}
