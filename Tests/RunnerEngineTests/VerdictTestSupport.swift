import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import Testing

@testable import RunnerEngine
import RunnerVocabulary

/// One row of a table-driven checker test: a plan's `expect`, a response, and exactly the
/// problems it must produce.
struct VerdictCase: Sendable, CustomTestStringConvertible {
    var name: String
    var expect: Expectations
    var observed: ObservedResponse
    var problems: [Problem]

    init(_ name: String, _ expect: Expectations, _ observed: ObservedResponse, _ problems: [Problem] = []) {
        self.name = name
        self.expect = expect
        self.observed = observed
        self.problems = problems
    }

    var testDescription: String { name }
}

/// The fixed clock every certificate test uses: 2026-11-21T09:00:00Z.
let verdictNow = Date(timeIntervalSince1970: 1_795_251_600)
/// 2026-11-24T10:00:00Z: three days and an hour after `verdictNow`.
let inThreeDays = Date(timeIntervalSince1970: 1_795_514_400)

func expecting(_ configure: (inout Expectations) -> Void = { _ in }) -> Expectations {
    var expectations = Expectations()
    configure(&expectations)
    return expectations
}

func response(
    status: Int = 200, headers: [Header] = [], body: String = "",
    bodyLength: Int? = nil, sha256: String = "", httpVersion: String? = "1.1",
    certificate: CertificateSummary? = nil, timings: Timings = Timings(),
    totalTime: Duration = .milliseconds(50), redirects: Int = 0
) -> ObservedResponse {
    ObservedResponse(
        status: status, headers: headers, body: Data(body.utf8), bodyLength: bodyLength,
        bodySHA256: sha256, httpVersion: httpVersion, certificate: certificate,
        timings: timings, totalTime: totalTime, redirects: redirects)
}

func problem(_ subject: String, _ expected: String, _ actual: String) -> Problem {
    Problem(subject: subject, expected: expected, actual: actual)
}

func jsonPath(_ text: String, _ components: JSONPath.Component...) -> JSONPath {
    JSONPath(components: components, text: text)
}

func labCertificate(
    subject: String = "CN=api.lab.test,O=runner lab", issuer: String = "CN=Runner Lab CA,O=runner lab",
    notAfter: Date? = inThreeDays
) -> CertificateSummary {
    CertificateSummary(
        subject: subject, issuer: issuer, notBefore: nil, notAfter: notAfter,
        subjectAltNames: ["api.lab.test"])
}
