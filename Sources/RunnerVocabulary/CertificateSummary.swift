import Foundation

/// A server certificate as the runner sees it: read from the TLS session by transport, checked
/// by expectations, printed by reports.
///
/// A reference, immutable once read: a leaf is converted once per connection (the transport's
/// certificate cache) and then held by every transfer, hop and report that shows it, each
/// holding the same value rather than a copy of its seven fields.
public final class CertificateSummary: Sendable, Equatable {
    /// RFC 2253 form, e.g. `CN=api.lab.test,O=runner lab`.
    public let subject: String
    public let issuer: String
    public let notBefore: Date?
    public let notAfter: Date?
    /// DNS names and IP addresses from subjectAltName.
    public let subjectAltNames: [String]
    /// The serial number, lower-case hex without leading zeros; nil when not read.
    public let serialNumber: String?
    /// SHA-256 of the certificate's DER in lower-case hex: its fingerprint; nil when not read.
    public let sha256Fingerprint: String?

    public init(
        subject: String, issuer: String, notBefore: Date? = nil, notAfter: Date?, subjectAltNames: [String],
        serialNumber: String? = nil, sha256Fingerprint: String? = nil
    ) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectAltNames = subjectAltNames
        self.serialNumber = serialNumber
        self.sha256Fingerprint = sha256Fingerprint
    }

    public static func == (lhs: CertificateSummary, rhs: CertificateSummary) -> Bool {
        lhs === rhs
            || (lhs.subject == rhs.subject && lhs.issuer == rhs.issuer && lhs.notBefore == rhs.notBefore
                && lhs.notAfter == rhs.notAfter && lhs.subjectAltNames == rhs.subjectAltNames
                && lhs.serialNumber == rhs.serialNumber && lhs.sha256Fingerprint == rhs.sha256Fingerprint)
    }
}
