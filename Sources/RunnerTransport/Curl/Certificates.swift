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
/// same leaf need not be printed again for each transfer (nor its chain's pins computed again).
final class CertificateCache {
    private var entries: [CertificateFingerprint: CertificateSummary] = [:]
    private var chains: [CertificateFingerprint: (verified: Bool, chain: [ChainCertificate])] = [:]
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

    /// The easy handle's live TLS session: version and cipher read each time, the chain
    /// converted once per leaf (and verification state); nil without a session.
    func liveSession(of easy: EasyHandle) -> TLSSession? {
        let fingerprint = easy.livePeerFingerprint()
        if let fingerprint, let known = chains[fingerprint], let session = easy.liveSession(withChain: false),
            session.chainVerified == known.verified
        {
            return TLSSession(
                version: TLSVersion(openSSLName: session.version), cipher: session.cipher, chainVerified: known.verified,
                chain: known.chain)
        }
        guard let session = easy.liveSession(withChain: true) else { return nil }
        if let fingerprint {
            if chains.count >= limit { chains.removeAll(keepingCapacity: true) }
            chains[fingerprint] = (session.chainVerified, session.chain)
        }
        return TLSSession(
            version: TLSVersion(openSSLName: session.version), cipher: session.cipher, chainVerified: session.chainVerified,
            chain: session.chain)
    }
}

extension ChainCertificate {
    /// Converts the shim's C record (which the caller still releases).
    init?(_ cert: borrowing ccurl_chain_cert) {
        guard let subject = cert.subject else { return nil }
        var digest = cert.spki_sha256
        let spki = withUnsafeBytes(of: &digest) { Array($0) }
        var keyType = cert.key_type
        var signature = cert.signature
        var signatureDigest = cert.signature_digest
        self.init(
            subject: String(cString: subject), spkiSHA256: spki,
            keyType: withUnsafeBytes(of: &keyType) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            keyBits: Int(cert.key_bits),
            signature: withUnsafeBytes(of: &signature) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            signatureDigest: withUnsafeBytes(of: &signatureDigest) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }

    /// One certificate (DER) as a chain entry: what the profile and pin checks see of it.
    public static func fromDER(_ der: [UInt8]) -> ChainCertificate? {
        var cert = ccurl_chain_cert()
        guard der.withUnsafeBufferPointer({ ccurl_chain_cert_from_der($0.baseAddress, $0.count, &cert) }) == 1 else { return nil }
        defer { ccurl_chain_cert_release(&cert) }
        return ChainCertificate(cert)
    }
}

extension EasyHandle {
    /// The live session's version and cipher, and its chain when `withChain`.
    func liveSession(withChain: Bool) -> (version: String, cipher: String, chainVerified: Bool, chain: [ChainCertificate])? {
        var info = ccurl_session_info()
        guard ccurl_easy_session_info(raw, withChain ? 1 : 0, &info) == 1 else { return nil }
        defer { ccurl_session_info_release(&info) }
        var version = info.version
        var cipher = info.cipher
        var chain: [ChainCertificate] = []
        if let entries = info.chain {
            chain = (0..<info.chain_count).compactMap { ChainCertificate(entries[$0]) }
        }
        return (
            withUnsafeBytes(of: &version) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            withUnsafeBytes(of: &cipher) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            info.chain_verified != 0, chain)
    }
}
