import Foundation

/// What a TLS handshake settled on: read from the live session by transport, checked by
/// `expect.tls`, the pins and a profile, printed by reports.
public struct TLSSession: Sendable, Equatable {
    /// The negotiated version; nil when OpenSSL named one the runner does not know.
    public var version: TLSVersion?
    /// OpenSSL's name of the negotiated cipher, e.g. `TLS_AES_256_GCM_SHA384`.
    public var cipher: String
    /// True when `chain` is the chain verification built (leaf to trust anchor); false when
    /// verification was off (`insecure: true`) and it is what the server presented.
    public var chainVerified: Bool
    /// Leaf first.
    public var chain: [ChainCertificate]

    public init(version: TLSVersion?, cipher: String, chainVerified: Bool, chain: [ChainCertificate]) {
        self.version = version
        self.cipher = cipher
        self.chainVerified = chainVerified
        self.chain = chain
    }

    /// The chain is what the server presented, not one verification built (`insecure: true`).
    /// A handshake that failed has no chain at all, and is not said to be unverified.
    public var chainIsUnverified: Bool { !chainVerified && !chain.isEmpty }

    /// Whether the cipher gives forward secrecy: every TLS 1.3 suite, and ECDHE/DHE ones below.
    public var forwardSecret: Bool {
        version == .v1_3 || cipher.hasPrefix("ECDHE-") || cipher.hasPrefix("DHE-") || cipher.hasPrefix("TLS_")
    }
}

/// One certificate of a chain as a pin set sees it.
public struct ChainCertificate: Sendable, Equatable {
    /// RFC 2253 form.
    public var subject: String
    /// SHA-256 of the DER SubjectPublicKeyInfo (32 bytes).
    public private(set) var spkiSHA256: [UInt8]
    /// The same as `sha256/BASE64`, as OkHttp and TrustKit write a pin: made once, with the
    /// certificate (every report and the pin check read it).
    public private(set) var pin: String
    /// `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA` or `unknown`.
    public var keyType: String
    public var keyBits: Int
    /// OpenSSL's long name of the signature algorithm, e.g. `ecdsa-with-SHA256`.
    public var signature: String
    /// The signature's hash, e.g. `SHA256`, `SHA1`; empty for a scheme without one (Ed25519).
    public var signatureDigest: String
    /// When the certificate expires; nil when not read.
    public var notAfter: Date?

    /// - Parameter pin: `spkiSHA256` as text, when the reader already made it (the transport,
    ///   with OpenSSL); nil: made here.
    public init(
        subject: String, spkiSHA256: [UInt8], pin: String? = nil, keyType: String, keyBits: Int, signature: String,
        signatureDigest: String, notAfter: Date? = nil
    ) {
        self.notAfter = notAfter
        self.subject = subject
        self.spkiSHA256 = spkiSHA256
        self.pin = pin ?? Self.pinText(spkiSHA256)
        self.keyType = keyType
        self.keyBits = keyBits
        self.signature = signature
        self.signatureDigest = signatureDigest
    }

    /// A SubjectPublicKeyInfo digest as a pin: `sha256/BASE64`.
    public static func pinText(_ digest: [UInt8]) -> String { "sha256/" + Data(digest).base64EncodedString() }
}
