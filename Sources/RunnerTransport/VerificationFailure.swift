import RunnerVocabulary

/// The first certificate-verification error OpenSSL reported, and the leaf it was about.
///
/// A reference, immutable once the transport has read it: the transfer's evidence, the state
/// machine's probe and the diagnosis hold this one value rather than copies of it.
public final class VerificationFailure: Sendable, Equatable {
    /// OpenSSL's X509_V_ERR code (`X509VerifyCode`) and its text, e.g. "hostname mismatch",
    /// "certificate has expired".
    public let code: Int
    public let reason: String
    public let leaf: CertificateSummary?

    public init(code: Int, reason: String, leaf: CertificateSummary?) {
        self.code = code
        self.reason = reason
        self.leaf = leaf
    }

    public var isHostnameMismatch: Bool { code == X509VerifyCode.hostnameMismatch }
    public var isExpired: Bool { code == X509VerifyCode.certHasExpired }

    public static func == (lhs: VerificationFailure, rhs: VerificationFailure) -> Bool {
        lhs === rhs || (lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.leaf == rhs.leaf)
    }
}
