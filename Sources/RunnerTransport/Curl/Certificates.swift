internal import CCurlShim
import Foundation
import RunnerVocabulary

extension CertificateSummary {
    /// Converts the shim's C record (which the caller still releases).
    convenience init?(_ info: borrowing ccurl_cert_info) {
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
        var fingerprint: String?
        if info.has_sha256 != 0 {
            var digest = info.sha256
            fingerprint = withUnsafeBytes(of: &digest) { lowercaseHex($0) }
        }
        self.init(
            subject: String(cString: subject),
            issuer: String(cString: issuer),
            notBefore: info.has_not_before != 0 ? Date(timeIntervalSince1970: TimeInterval(info.not_before)) : nil,
            notAfter: info.has_not_after != 0 ? Date(timeIntervalSince1970: TimeInterval(info.not_after)) : nil,
            subjectAltNames: names,
            serialNumber: info.serial_number.map { String(cString: $0) },
            sha256Fingerprint: fingerprint)
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
    /// What is known of one leaf: a reference, so a transfer on a known connection reads it
    /// without copying (or retaining) each field.
    private final class Entry {
        var certificate: CertificateSummary?
        /// The session last read with this leaf, by OpenSSL's static names for its version and
        /// cipher: the same names and verification state give the same value, made once.
        var session: (version: UnsafePointer<CChar>, cipher: UnsafePointer<CChar>, value: TLSSession)?
    }

    private var entries: [CertificateFingerprint: Entry] = [:]
    /// The same entries by the address of a live connection's leaf object, which the cache
    /// holds a reference on (so no other certificate can take that address while it is a key):
    /// a transfer on a known connection finds its entry without a fingerprint (whose digest
    /// lookup in OpenSSL costs more than the rest of this).
    private var entriesByLeaf: [UnsafeRawPointer: Entry] = [:]
    private let limit: Int

    init(limit: Int = 512) { self.limit = limit }

    deinit { forgetLeaves() }

    /// The leaf and the session (version, cipher, chain) of the easy handle's live TLS
    /// connection, each nil without one. Per transfer this costs a look-up by the leaf's
    /// address and a look at the session's names; the leaf, the chain's pins and the session
    /// value are made once.
    func live(of easy: EasyHandle) -> (certificate: CertificateSummary?, session: TLSSession?) {
        guard let leaf = easy.livePeerLeaf() else {
            return (nil, easy.liveSession(withChain: true).map(Self.session))
        }
        let entry: Entry
        if let known = entriesByLeaf[leaf] {
            entry = known
        } else {
            guard let fingerprint = easy.livePeerFingerprint() else {
                return (nil, easy.liveSession(withChain: true).map(Self.session))
            }
            if let known = entries[fingerprint] {
                entry = known
            } else {
                if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
                entry = Entry()
                entries[fingerprint] = entry
            }
            if entriesByLeaf.count >= limit { forgetLeaves() }
            if ccurl_certificate_retain(leaf) == 1 { entriesByLeaf[leaf] = entry }
        }
        if entry.certificate == nil { entry.certificate = easy.livePeerCertificate() }
        guard let names = easy.liveSessionNames() else { return (entry.certificate, nil) }
        if let cached = entry.session, cached.version == names.version, cached.cipher == names.cipher,
            cached.value.chainVerified == names.chainVerified
        {
            return (entry.certificate, cached.value)
        }
        guard let read = easy.liveSession(withChain: true).map(Self.session) else { return (entry.certificate, nil) }
        entry.session = (names.version, names.cipher, read)
        return (entry.certificate, read)
    }

    /// Drops the leaf keys and the references that kept their addresses theirs.
    private func forgetLeaves() {
        for leaf in entriesByLeaf.keys { ccurl_certificate_release(leaf) }
        entriesByLeaf.removeAll(keepingCapacity: true)
    }

    private static func session(_ live: (version: String, cipher: String, chainVerified: Bool, chain: [ChainCertificate])) -> TLSSession {
        TLSSession(version: TLSVersion(openSSLName: live.version), cipher: live.cipher, chainVerified: live.chainVerified, chain: live.chain)
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
        var pin = cert.pin
        self.init(
            subject: String(cString: subject), spkiSHA256: spki,
            pin: withUnsafeBytes(of: &pin) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            keyType: withUnsafeBytes(of: &keyType) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            keyBits: Int(cert.key_bits),
            signature: withUnsafeBytes(of: &signature) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            signatureDigest: withUnsafeBytes(of: &signatureDigest) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            notAfter: cert.has_not_after != 0 ? Date(timeIntervalSince1970: TimeInterval(cert.not_after)) : nil)
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
    /// The live session's version and cipher as OpenSSL's static names, and whether its chain
    /// was verified; nil without a session.
    func liveSessionNames() -> (version: UnsafePointer<CChar>, cipher: UnsafePointer<CChar>, chainVerified: Bool)? {
        var version: UnsafePointer<CChar>?
        var cipher: UnsafePointer<CChar>?
        var verified: Int32 = 0
        guard ccurl_easy_session_names(raw, &version, &cipher, &verified) == 1, let version, let cipher else { return nil }
        return (version, cipher, verified != 0)
    }

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
