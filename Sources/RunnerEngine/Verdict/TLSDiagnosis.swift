import Foundation
import RunnerPlan
import RunnerTransport
import RunnerVocabulary

/// Turns a failed handshake into a diagnosis in domain terms: what the server presented and
/// which strategy the endpoint needs.
enum TLSDiagnosis {
    /// The extra handshake with SNI that tells "needs SNI" from "wrong certificate".
    enum SNIProbe: Equatable {
        /// The certificate presented with SNI verified for the host.
        case verified(CertificateSummary?)
        /// It did not verify either (with what the verifier saw, when anything).
        case failed(VerificationFailure?, message: String)
    }

    /// Diagnosis for a handshake the scenario's `tls:` limits made fail, from what the server
    /// negotiated without them (`offered`, nil when the probe saw no session):
    /// `the server at 10.0.0.7:443 negotiates only TLS 1.2 AES128-GCM-SHA256 (no forward
    /// secrecy), which an iOS app with ATS refuses`.
    static func limits(endpoint: String, offered: TLSSession?, client: ClientTLS) -> String {
        let refuser = client.profile.map { "which \($0.platform) refuses" } ?? "which this scenario's tls settings (\(client.limitsText)) refuse"
        guard let offered else {
            return "without the scenario's tls settings the handshake with \(endpoint) succeeds: the server offers nothing those settings accept"
        }
        let version = offered.version?.displayName ?? "an unknown TLS version"
        let secrecy = offered.forwardSecret ? "" : " (no forward secrecy)"
        return "the server at \(endpoint) negotiates only \(version) \(offered.cipher)\(secrecy), \(refuser)"
    }

    /// Diagnosis for a trust-override handshake that failed at `endpoint` (`IP:PORT`).
    static func trustOverride(
        host: String, endpoint: String, withoutSNI: VerificationFailure?, probe: SNIProbe
    ) -> String? {
        if let withoutSNI, !withoutSNI.isHostnameMismatch {
            return general(host: host, failure: withoutSNI)
        }
        let presentedWithout = withoutSNI?.leaf.map(names) ?? "a certificate"
        switch probe {
        case .verified(let certificate):
            let presentedWith = certificate.map(names) ?? "a valid certificate"
            return "the server at \(endpoint) presents \(presentedWithout) without SNI and \(presentedWith) with it, so this endpoint needs sni-resolve"
        case .failed(let failure, _):
            if let failure, !failure.isHostnameMismatch, let general = general(host: host, failure: failure) {
                return "with or without SNI: \(general)"
            }
            let presentedWith = failure?.leaf.map(names)
            if let presentedWith, presentedWith != presentedWithout {
                return "the server at \(endpoint) presents \(presentedWithout) without SNI and \(presentedWith) with it; neither covers '\(host)': wrong certificate or wrong IP for this host"
            }
            return "the server at \(endpoint) presents \(presentedWithout) with or without SNI, which does not cover '\(host)': wrong certificate or wrong IP for this host"
        }
    }

    /// Diagnosis for a verification failure whatever the strategy (expiry, trust, name).
    static func general(host: String, failure: VerificationFailure) -> String? {
        let presented = failure.leaf.map(names) ?? "its certificate"
        switch failure.code {
        case X509VerifyCode.certHasExpired:
            let date = failure.leaf?.notAfter.map(iso8601) ?? "an earlier date"
            return "the certificate \(presented) expired on \(date)"
        case X509VerifyCode.certNotYetValid:
            return "the certificate \(presented) is not valid yet"
        case X509VerifyCode.depthZeroSelfSignedCert, X509VerifyCode.selfSignedCertInChain,
            X509VerifyCode.unableToGetIssuerCertLocally, X509VerifyCode.unableToVerifyLeafSignature,
            X509VerifyCode.unableToGetIssuerCert, X509VerifyCode.certUntrusted:
            return "the certificate chain of \(presented) is not trusted by the configured trust store (set `ca:` to the issuing CA, or check the endpoint)"
        case X509VerifyCode.hostnameMismatch:
            return "the server presents \(presented), which does not cover '\(host)'"
        default:
            return nil
        }
    }

    /// `'a.example' (also 'b.example')` from a certificate's SANs, or its subject when it has none.
    static func names(_ certificate: CertificateSummary) -> String {
        let dnsNames = certificate.subjectAltNames.filter { IPAddress($0) == nil }
        guard let first = dnsNames.first else { return "'\(certificate.subject)'" }
        let rest = dnsNames.dropFirst()
        return rest.isEmpty ? "'\(first)'" : "'\(first)' (also \(rest.map { "'\($0)'" }.joined(separator: ", ")))"
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
