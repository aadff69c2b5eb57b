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
        let record = ResultRecord(result, at: position, plan: plans[position.suite], redactor: redactor)
        spool.append(at: position) { bytes in
            JSONWriter.appending(to: &bytes, fragmentDepth: Self.resultDepth) { writer in
                writer.element()
                encoder.write(record, to: &writer)
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

// The records below mirror RunnerResults in the report's own vocabulary. Each one's stored
// properties and CodingKeys are the only description of its fields: `JSONRecordEncoder` writes
// them from its Codable conformance (an absent optional as `null`, so every documented key is
// always present; keys sorted), and the tests read reports back through the same conformance.
// CodingKeys (and the properties, for records without any) are declared in key order: the
// synthesized `encode(to:)` gives the keys in that order, so each member is written straight
// into place (a record declared out of order comes out the same, a little slower; a test holds
// every record here to it).
// A suite's record is the exception: `JSONReport.writeSuite` writes it around the spooled
// results, member by member over its `CodingKeys` (JSONReportTests decode it).

/// The whole report as one value, as the tests read it back.
struct Document: Codable, Equatable {
    var runner: RunnerRecord
    var suites: [SuiteRecord]
    var summary: SummaryRecord

    /// The document a run with these results (per suite, in plan order) should come to.
    init(_ run: RunResult, results: [[(ScenarioResult, ResultPosition)]], redactor: Redactor) {
        runner = RunnerRecord(run)
        let flaky = results.joined().lazy.filter(\.0.isFlaky).count
        summary = SummaryRecord(run, flaky: flaky)
        suites = zip(run.suites, results).map { SuiteRecord($0, results: $1, redactor: redactor) }
    }
}

struct RunnerRecord: Codable, Equatable {
    var durationMs: Double
    var formatVersion: Int
    var interrupted: Bool
    var interruptedBy: String?
    var name: String
    var shard: String?
    var startedAt: String

    init(_ run: RunResult) {
        name = "runner"
        formatVersion = JSONReport.formatVersion
        startedAt = Format.timestamp(run.startedAt)
        durationMs = Format.millisecondsValue(run.duration)
        interrupted = run.interruptedBy != nil
        interruptedBy = run.interruptedBy.map(Format.signalName)
        shard = run.shard?.description
    }

    enum CodingKeys: String, CodingKey {
        case durationMs = "duration_ms"
        case formatVersion = "format_version"
        case interrupted
        case interruptedBy = "interrupted_by"
        case name
        case shard
        case startedAt = "started_at"
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

struct SuiteRecord: Codable, Equatable {
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

    init(_ suite: SuiteResult, results: [(ScenarioResult, ResultPosition)], redactor: Redactor) {
        self.init(withoutResults: suite, redactor: redactor)
        let plan = PlanRecord(file: file, name: name)
        self.results = results.map { ResultRecord($0.0, at: $0.1, plan: plan, redactor: redactor) }
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
}

struct ResultRecord: Codable, Equatable {
    /// A flow step's lane, nearest predecessor first; `[]` for a scenario that runs after none
    /// (optional only to read reports written before flows).
    var after: [StepRecord]?
    var durationMs: Double
    var earlierAttempts: [AttemptRecord]
    var error: ErrorRecord?
    var evidence: EvidenceRecord
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

    enum CodingKeys: String, CodingKey {
        case after
        case durationMs = "duration_ms"
        case earlierAttempts = "earlier_attempts"
        case error, evidence, flaky, insecure, ip, name, outcome, plan, problems, scenario
        case scenarioIndex = "scenario_index"
        case skippedReason = "skipped_reason"
        case strategy, tags
    }

    init(_ result: borrowing ScenarioResult, at position: ResultPosition, plan: PlanRecord, redactor: Redactor) {
        name = redactor.redact(result.displayName)
        self.plan = plan
        scenario = redactor.redact(result.scenario)
        scenarioIndex = position.scenario
        strategy = redactor.redact(result.strategy.rawValue)
        ip = result.ip.map(redactor.redact)
        tags = result.tags.map(redactor.redact)
        (outcome, problems, error, skippedReason) = OutcomeFields.of(result.outcome, redactor: redactor)
        insecure = result.evidence.insecure
        flaky = result.isFlaky
        earlierAttempts = result.earlierAttempts.map { AttemptRecord($0, redactor: redactor) }
        durationMs = Format.millisecondsValue(result.duration)
        evidence = EvidenceRecord(result.evidence, redactor: redactor, reproducing: !result.outcome.isPassed)
        after = result.after.map { StepRecord($0, redactor: redactor) }
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

/// A value a result captured: its name, and its value unless it is secret.
struct CapturedRecord: Codable, Equatable {
    var name: String
    var secret: Bool
    var value: String?

    init(_ record: CaptureRecord, redactor: Redactor) {
        name = record.name
        secret = record.value == nil
        value = record.value.map(redactor.redact)
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
                    actual: redactor.redact($0.actual), expected: redactor.redact($0.expected),
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
    var subject: String
}

struct ErrorRecord: Codable, Equatable {
    var diagnosis: String?
    var message: String
    var type: String

    enum CodingKeys: String, CodingKey {
        case diagnosis, message, type
    }

}

struct EvidenceRecord: Codable, Equatable {
    /// What the result captured (`capture:`), `[]` for none (optional only to read reports
    /// written before flows).
    var captured: [CapturedRecord]?
    /// What the scenario's resolver answered per host (`resolver:`), `[]` for none (optional
    /// only to read reports written before resolver checks).
    var dns: [DNSLookupRecord]?
    /// Why `expect.dns` was not checked, when it was not.
    var dnsNotChecked: String?
    var hops: [HopRecord]
    var ipSource: String
    var notes: [String]

    enum CodingKeys: String, CodingKey {
        case captured
        case dns
        case dnsNotChecked = "dns_not_checked"
        case hops
        case ipSource = "ip_source"
        case notes
    }

    /// - Parameter reproducing: each hop's curl line is written (a result that did not pass).
    init(_ evidence: borrowing Evidence, redactor: Redactor, reproducing: Bool) {
        ipSource = redactor.redact(evidence.ipSource)
        notes = evidence.notes.map(redactor.redact)
        hops = evidence.hops.map { hop in
            HopRecord(hop, redactor: redactor, curl: reproducing ? CurlCommand.line(hop, of: evidence, redactor: redactor) : nil)
        }
        captured = evidence.captured.map { CapturedRecord($0, redactor: redactor) }
        dns = evidence.dns.map { DNSLookupRecord($0, redactor: redactor) }
        dnsNotChecked = evidence.dnsNotChecked.map(redactor.redact)
    }
}

/// One host a resolver was asked for: its questions, and the check's findings.
struct DNSLookupRecord: Codable, Equatable {
    var foreign: [String]
    var host: String
    var questions: [DNSQuestionRecord]
    var resolver: String
    /// The maps checked against; null when `expect.dns` did not check this lookup.
    var within: [String]?

    init(_ lookup: DNSLookupEvidence, redactor: Redactor) {
        foreign = lookup.foreign
        host = redactor.redact(lookup.host)
        questions = lookup.questions.map(DNSQuestionRecord.init)
        resolver = lookup.resolver
        within = lookup.within
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(foreign, forKey: .foreign)
        try container.encode(host, forKey: .host)
        try container.encode(questions, forKey: .questions)
        try container.encode(resolver, forKey: .resolver)
        // Always present: null says "not checked" as plainly as a list says against what.
        try container.encode(within, forKey: .within)
    }
}

/// One question to a resolver and its answer.
struct DNSQuestionRecord: Codable, Equatable {
    var addresses: [String]
    var aliases: [String]
    var durationMs: Double
    var problem: String?
    var rcode: String?
    var ttl: Int?
    var type: String

    enum CodingKeys: String, CodingKey {
        case addresses, aliases
        case durationMs = "duration_ms"
        case problem, rcode, ttl, type
    }

    init(_ question: DNSQuestionEvidence) {
        addresses = question.addresses
        aliases = question.aliases
        durationMs = Format.millisecondsValue(question.duration)
        problem = question.problem
        rcode = question.rcode
        ttl = question.ttl
        type = question.type
    }
}

struct HopRecord: Codable, Equatable {
    var bodyLength: Int?
    var bodySHA256: String?
    var certificate: CertificateRecord?
    var connectedIP: String?
    var connectedPort: Int?
    /// The hop's curl line, for a result that did not pass; null otherwise.
    var curl: String?
    var hostHeader: String
    var httpVersion: String?
    var method: String
    var newConnection: Bool?
    var originalURL: String
    var pinnedIP: String?
    var sni: String?
    var status: Int?
    var timings: TimingsRecord
    /// The negotiated version and cipher and the chain; null on plain HTTP or without a handshake.
    var tls: TLSRecord?
    var urlSent: String

    enum CodingKeys: String, CodingKey {
        case bodyLength = "body_length"
        case bodySHA256 = "body_sha256"
        case certificate
        case connectedIP = "connected_ip"
        case connectedPort = "connected_port"
        case curl
        case hostHeader = "host_header"
        case httpVersion = "http_version"
        case method
        case newConnection = "new_connection"
        case originalURL = "original_url"
        case pinnedIP = "pinned_ip"
        case sni, status, timings, tls
        case urlSent = "url_sent"
    }

    init(_ hop: borrowing HopEvidence, redactor: Redactor, curl: String?) {
        self.curl = curl
        method = redactor.redact(hop.method)
        originalURL = redactor.redact(hop.originalURL)
        urlSent = redactor.redact(hop.connection.urlSent)
        hostHeader = redactor.redact(hop.connection.hostHeader)
        sni = hop.connection.sni.map(redactor.redact)
        pinnedIP = hop.connection.pinnedIP.map(redactor.redact)
        connectedIP = hop.connectedIP.map(redactor.redact)
        connectedPort = hop.connectedPort
        httpVersion = hop.httpVersion.map(redactor.redact)
        status = hop.status
        certificate = hop.certificate.map { CertificateRecord($0, redactor: redactor) }
        timings = TimingsRecord(hop.timings)
        newConnection = hop.newConnection
        bodyLength = hop.bodyLength
        bodySHA256 = hop.bodySHA256.map(redactor.redact)
        tls = hop.tls.map { TLSRecord($0, redactor: redactor) }
    }

}

/// A hop's TLS session: `{"version", "cipher", "chain_verified", "chain"}`.
struct TLSRecord: Codable, Equatable {
    var chain: [ChainRecord]
    var chainVerified: Bool
    var cipher: String
    /// `"1.3"`; null for a version the runner does not know.
    var version: String?

    enum CodingKeys: String, CodingKey {
        case chain
        case chainVerified = "chain_verified"
        case cipher, version
    }

    init(_ session: TLSSession, redactor: Redactor) {
        chain = session.chain.map { ChainRecord($0, redactor: redactor) }
        chainVerified = session.chainVerified
        cipher = session.cipher
        version = session.version?.rawValue
    }
}

/// One certificate of a chain: its pin, subject, key and signature algorithm.
struct ChainRecord: Codable, Equatable {
    var keyBits: Int
    var keyType: String
    var pin: String
    var signature: String
    var subject: String

    enum CodingKeys: String, CodingKey {
        case keyBits = "key_bits"
        case keyType = "key_type"
        case pin, signature, subject
    }

    init(_ certificate: ChainCertificate, redactor: Redactor) {
        keyBits = certificate.keyBits
        keyType = certificate.keyType
        pin = certificate.pin
        signature = certificate.signature
        subject = redactor.redact(certificate.subject)
    }
}

struct CertificateRecord: Codable, Equatable {
    var issuer: String
    var notAfter: String?
    var subject: String
    var subjectAltNames: [String]

    enum CodingKeys: String, CodingKey {
        case issuer
        case notAfter = "not_after"
        case subject
        case subjectAltNames = "subject_alt_names"
    }

    init(_ certificate: borrowing CertificateSummary, redactor: Redactor) {
        subject = redactor.redact(certificate.subject)
        issuer = redactor.redact(certificate.issuer)
        notAfter = certificate.notAfter.map(Format.timestamp)
        subjectAltNames = certificate.subjectAltNames.map(redactor.redact)
    }

}

struct TimingsRecord: Codable, Equatable {
    var connectMs: Double?
    var firstByteMs: Double?
    var resolveMs: Double?
    var tlsMs: Double?
    var totalMs: Double?

    enum CodingKeys: String, CodingKey {
        case connectMs = "connect_ms"
        case firstByteMs = "first_byte_ms"
        case resolveMs = "resolve_ms"
        case tlsMs = "tls_ms"
        case totalMs = "total_ms"
    }

    init(_ timings: Timings) {
        resolveMs = timings.resolve.map(Format.millisecondsValue)
        connectMs = timings.connect.map(Format.millisecondsValue)
        tlsMs = timings.tls.map(Format.millisecondsValue)
        firstByteMs = timings.firstByte.map(Format.millisecondsValue)
        totalMs = timings.total.map(Format.millisecondsValue)
    }

}
