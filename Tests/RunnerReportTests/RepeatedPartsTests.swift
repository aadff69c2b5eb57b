import Foundation
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerReport

/// A connection's certificate and TLS session are rendered once per report and written again
/// for the results that share them: what is written again is byte for byte what a fresh
/// rendering writes, a different part is rendered anew, and a secret added since is masked.
@Suite("Reports: a repeated certificate and TLS session written again")
struct RepeatedPartsTests {
    static let position = ResultPosition(suite: 0, scenario: 0, slot: 0)

    static func json(_ result: ScenarioResult, redactor: Redactor, parts: RepeatedParts) -> String {
        var writer = JSONWriter()
        ResultRecord.write(
            result, at: position, plan: PlanRecord(file: "p.yaml", name: "p"), redactor: redactor,
            encoder: JSONRecordEncoder(), repeatedParts: parts, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func junitText(_ result: ScenarioResult, redactor: Redactor, parts: RepeatedParts?) -> String {
        var bytes = ByteBuffer()
        EvidenceText.writeXMLText(result, redactor: redactor, showingChain: true, repeatedParts: parts, to: &bytes)
        return String(decoding: bytes.array, as: UTF8.self)
    }

    /// The fixture with every fact set, its certificate's subject replaced.
    static func result(subject: String) -> ScenarioResult {
        var result = EvidenceRoundTripTests.complete
        if let leaf = result.evidence.hops[0].certificate {
            result.evidence.hops[0].certificate = CertificateSummary(
                subject: subject, issuer: leaf.issuer, notBefore: leaf.notBefore, notAfter: leaf.notAfter,
                subjectAltNames: leaf.subjectAltNames, serialNumber: leaf.serialNumber, sha256Fingerprint: leaf.sha256Fingerprint)
        }
        return result
    }

    @Test func theJSONReportWritesAgainWhatItWouldRenderAndRendersAChangedPart() {
        let redactor = Redactor(secrets: [])
        let shared = RepeatedParts()
        let first = Self.result(subject: "CN=one.example")
        #expect(Self.json(first, redactor: redactor, parts: shared) == Self.json(first, redactor: redactor, parts: RepeatedParts()))
        let again = Self.json(first, redactor: redactor, parts: shared)
        #expect(again == Self.json(first, redactor: redactor, parts: RepeatedParts()))
        #expect(again.contains("\"subject\" : \"CN=one.example\""))
        let other = Self.json(Self.result(subject: "CN=two.example"), redactor: redactor, parts: shared)
        #expect(other.contains("\"subject\" : \"CN=two.example\"") && !other.contains("one.example"))
    }

    @Test func theJSONReportMasksASecretAddedAfterThePartWasRendered() {
        let redactor = Redactor(secrets: [])
        let shared = RepeatedParts()
        let result = Self.result(subject: "CN=hunter2.example")
        #expect(Self.json(result, redactor: redactor, parts: shared).contains("hunter2"))
        redactor.add("hunter2")
        let masked = Self.json(result, redactor: redactor, parts: shared)
        #expect(!masked.contains("hunter2") && masked.contains("CN=***.example"))
    }

    @Test func junitTextWritesAgainWhatItWouldRenderAndMasksANewSecret() {
        let redactor = Redactor(secrets: [])
        let shared = RepeatedParts()
        let first = Self.result(subject: "CN=one.example")
        let fresh = Self.junitText(first, redactor: redactor, parts: nil)
        #expect(fresh.contains("certificate: subject CN=one.example") && fresh.contains("  chain 0: "))
        #expect(Self.junitText(first, redactor: redactor, parts: shared) == fresh)
        #expect(Self.junitText(first, redactor: redactor, parts: shared) == fresh, "written again, the same")
        let other = Self.junitText(Self.result(subject: "CN=two.example"), redactor: redactor, parts: shared)
        #expect(other.contains("certificate: subject CN=two.example") && !other.contains("one.example"))
        redactor.add("two.example")
        let masked = Self.junitText(Self.result(subject: "CN=two.example"), redactor: redactor, parts: shared)
        #expect(masked.contains("certificate: subject CN=***") && !masked.contains("two.example"))
    }
}
