internal import CCurlShim
import Foundation
import RunnerVocabulary

extension CertificateSummary {
    /// Converts the shim's C record (which the caller still releases).
    init?(_ info: borrowing ccurl_cert_info) {
        guard let subject = info.subject, let issuer = info.issuer else { return nil }
        var names: [String] = []
        names.reserveCapacity(info.alt_names_count)
        if let block = info.alt_names, info.alt_names_length > 0 {
            // NUL-terminated names back to back.
            var start = block
            let end = block + info.alt_names_length
            while start < end {
                let name = String(cString: start)
                names.append(name)
                start += name.utf8.count + 1
            }
        }
        self.init(
            subject: String(cString: subject),
            issuer: String(cString: issuer),
            notBefore: info.has_not_before != 0 ? Date(timeIntervalSince1970: TimeInterval(info.not_before)) : nil,
            notAfter: info.has_not_after != 0 ? Date(timeIntervalSince1970: TimeInterval(info.not_after)) : nil,
            subjectAltNames: names)
    }

    /// Runs a shim extractor and converts what it filled.
    static func extract(_ fill: (inout ccurl_cert_info) -> Int32) -> CertificateSummary? {
        var info = ccurl_cert_info()
        guard fill(&info) == 1 else { return nil }
        defer { ccurl_cert_info_release(&info) }
        return CertificateSummary(info)
    }
}

/// SHA-1 of a certificate, to recognise one already converted (not a security check).
struct CertificateFingerprint: Hashable, Sendable {
    var high: UInt64
    var middle: UInt64
    var low: UInt32
}

/// Converted certificates by fingerprint: connections are reused thousands of times, and the
/// same leaf need not be printed again for each transfer.
final class CertificateCache {
    private var entries: [CertificateFingerprint: CertificateSummary] = [:]
    private let limit: Int

    init(limit: Int = 512) { self.limit = limit }

    /// The leaf of the easy handle's live TLS session, nil without one.
    func liveCertificate(of easy: EasyHandle) -> CertificateSummary? {
        guard let fingerprint = easy.livePeerFingerprint() else { return nil }
        if let known = entries[fingerprint] { return known }
        guard let certificate = easy.livePeerCertificate() else { return nil }
        if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
        entries[fingerprint] = certificate
        return certificate
    }
}
