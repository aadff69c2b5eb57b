import Foundation
import RunnerResults
import RunnerVocabulary

// Reading a JSON report back into results (`runner merge`): the inverse of the records'
// initialisers in JSONReport.swift. What the document cannot hold comes back empty: a
// certificate's `notBefore`, a transfer error's curl code, the resolution-fallback mark (which
// only the metrics read).

extension ScenarioResult {
    /// The result a record was written from (`field`: the record's place, for problems).
    init(_ record: ResultRecord, field: String) throws(RecordProblem) {
        guard let strategy = StrategyKind(rawValue: record.strategy) else {
            throw RecordProblem(field: field + ".strategy", message: "unknown strategy '\(record.strategy)'")
        }
        let outcome = try Outcome(
            record.outcome, problems: record.problems, error: record.error, skippedReason: record.skippedReason, field: field)
        var attempts: [Attempt] = []
        for (number, attempt) in record.earlierAttempts.enumerated() {
            let place = "\(field).earlier_attempts[\(number)]"
            let outcome = try Outcome(attempt.outcome, problems: attempt.problems, error: attempt.error, skippedReason: nil, field: place)
            attempts.append(Attempt(outcome: outcome, duration: attempt.durationMs / 1000))
        }
        var evidence = Evidence(strategy: strategy, ipSource: record.evidence.ipSource, insecure: record.insecure)
        evidence.notes = record.evidence.notes
        for (number, hop) in record.evidence.hops.enumerated() {
            evidence.hops.append(try HopEvidence(hop, strategy: strategy, field: "\(field).evidence.hops[\(number)]"))
        }
        evidence.captured = (record.evidence.captured ?? []).map { CaptureRecord(name: $0.name, value: $0.secret ? nil : $0.value) }
        evidence.dns = (record.evidence.dns ?? []).map(DNSLookupEvidence.init)
        evidence.dnsNotChecked = record.evidence.dnsNotChecked
        self.init(
            scenario: record.scenario, strategy: strategy, ip: record.ip, tags: record.tags, outcome: outcome,
            evidence: evidence, duration: record.durationMs / 1000, earlierAttempts: attempts)
        for (number, step) in (record.after ?? []).enumerated() {
            guard let kind = StrategyKind(rawValue: step.strategy) else {
                throw RecordProblem(field: "\(field).after[\(number)].strategy", message: "unknown strategy '\(step.strategy)'")
            }
            after.append(ResultStep(scenario: step.scenario, strategy: kind, ip: step.ip))
        }
    }
}

extension Outcome {
    init(
        _ name: String, problems: [ProblemRecord], error: ErrorRecord?, skippedReason: String?, field: String
    ) throws(RecordProblem) {
        switch name {
        case "passed":
            self = .passed
        case "failed":
            self = .failed(problems.map { Problem(subject: $0.subject, expected: $0.expected, actual: $0.actual) })
        case "error":
            guard let error else { throw RecordProblem(field: field + ".error", message: "an error result without its error") }
            guard let kind = TransferError.Kind(rawValue: error.type) else {
                throw RecordProblem(field: field + ".error.type", message: "unknown error type '\(error.type)'")
            }
            self = .errored(TransferError(kind: kind, message: error.message, diagnosis: error.diagnosis))
        case "skipped":
            self = .skipped(reason: skippedReason ?? "")
        default:
            throw RecordProblem(field: field + ".outcome", message: "unknown outcome '\(name)'")
        }
    }
}

extension HopEvidence {
    /// The document keeps the result's strategy, not each hop's: a hop reads back with it (a
    /// redirect that changed scheme comes back with the result's), and its TLS settings as the
    /// defaults (its curl line, recorded, is what a merged report shows).
    init(_ record: HopRecord, strategy: StrategyKind, field: String) throws(RecordProblem) {
        self.init(
            method: record.method, originalURL: record.originalURL,
            connection: HopConnection(
                strategy: strategy, urlSent: record.urlSent, hostHeader: record.hostHeader, sni: record.sni,
                pinnedIP: record.pinnedIP),
            timings: Timings(
                resolve: record.timings.resolveMs.map { $0 / 1000 }, connect: record.timings.connectMs.map { $0 / 1000 },
                tls: record.timings.tlsMs.map { $0 / 1000 }, firstByte: record.timings.firstByteMs.map { $0 / 1000 },
                total: record.timings.totalMs.map { $0 / 1000 }))
        connectedIP = record.connectedIP
        connectedPort = record.connectedPort
        httpVersion = record.httpVersion
        status = record.status
        newConnection = record.newConnection
        bodyLength = record.bodyLength
        bodySHA256 = record.bodySHA256
        reproduction = record.curl
        if let tls = record.tls {
            self.tls = TLSSession(
                version: tls.version.flatMap(TLSVersion.init(rawValue:)), cipher: tls.cipher, chainVerified: tls.chainVerified,
                chain: tls.chain.map { entry in
                    // A pin the runner wrote is `sha256/` and base64 of 32 bytes; anything else reads back empty.
                    let digest = Data(base64Encoded: String(entry.pin.dropFirst("sha256/".count))).map(Array.init) ?? []
                    return ChainCertificate(
                        subject: entry.subject, spkiSHA256: digest, keyType: entry.keyType, keyBits: entry.keyBits,
                        signature: entry.signature, signatureDigest: "")
                })
        }
        if let certificate = record.certificate {
            var notAfter: Date?
            if let text = certificate.notAfter {
                notAfter = try ReportDate.parse(text, field: field + ".certificate.not_after")
            }
            self.certificate = CertificateSummary(
                subject: certificate.subject, issuer: certificate.issuer, notAfter: notAfter,
                subjectAltNames: certificate.subjectAltNames)
        }
    }
}

extension DNSLookupEvidence {
    init(_ record: DNSLookupRecord) {
        self.init(
            resolver: record.resolver, host: record.host,
            questions: record.questions.map {
                DNSQuestionEvidence(
                    type: $0.type, rcode: $0.rcode, addresses: $0.addresses, ttl: $0.ttl, aliases: $0.aliases,
                    duration: $0.durationMs / 1000, problem: $0.problem)
            })
        within = record.within
        foreign = record.foreign
    }
}
