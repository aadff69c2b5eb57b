import Foundation
import RunnerTransport
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("TLS diagnosis", .timeLimit(.minutes(3)))
struct TLSDiagnosisTests {
    func certificate(_ names: [String], notAfter: Date? = nil) -> CertificateSummary {
        CertificateSummary(
            subject: "CN=\(names.first ?? "x")", issuer: "CN=runner lab CA", notBefore: nil, notAfter: notAfter,
            subjectAltNames: names)
    }

    @Test func needsSNIWhenTheSNIHandshakeVerifies() {
        let withoutSNI = VerificationFailure(code: 62, reason: "hostname mismatch", leaf: certificate(["default.lab.test"]))
        let text = TLSDiagnosis.trustOverride(
            host: "sni.lab.test", endpoint: "127.0.0.3:8443", withoutSNI: withoutSNI,
            probe: .verified(certificate(["sni.lab.test"])))
        #expect(text == "the server at 127.0.0.3:8443 presents 'default.lab.test' without SNI and 'sni.lab.test' with it, so this endpoint needs sni-resolve")
    }

    @Test func wrongCertificateWhenSNIDoesNotHelp() {
        let leaf = certificate(["other.lab.test", "127.0.0.2"])
        let failure = VerificationFailure(code: 62, reason: "hostname mismatch", leaf: leaf)
        let text = TLSDiagnosis.trustOverride(
            host: "api.lab.test", endpoint: "127.0.0.2:8443", withoutSNI: failure,
            probe: .failed(nil, message: "no alternative certificate subject name matches"))
        #expect(text == "the server at 127.0.0.2:8443 presents 'other.lab.test' with or without SNI, which does not cover 'api.lab.test': wrong certificate or wrong IP for this host")
    }

    @Test func expiryIsSaidWithItsDate() throws {
        let expiry = try #require(ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z"))
        let failure = VerificationFailure(code: 10, reason: "certificate has expired", leaf: certificate(["expired.lab.test"], notAfter: expiry))
        #expect(TLSDiagnosis.general(host: "expired.lab.test", failure: failure) == "the certificate 'expired.lab.test' expired on 2026-11-20T10:00:00Z")
        let viaTrustOverride = TLSDiagnosis.trustOverride(
            host: "expired.lab.test", endpoint: "127.0.0.4:8443", withoutSNI: failure, probe: .failed(failure, message: ""))
        #expect(viaTrustOverride == "the certificate 'expired.lab.test' expired on 2026-11-20T10:00:00Z")
    }

    @Test func untrustedChainPointsAtTheCASetting() {
        let failure = VerificationFailure(code: 20, reason: "unable to get local issuer certificate", leaf: certificate(["api.lab.test"]))
        #expect(TLSDiagnosis.general(host: "api.lab.test", failure: failure)?.contains("set `ca:` to the issuing CA") == true)
    }
}
