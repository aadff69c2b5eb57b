import Foundation

/// A server certificate as the runner sees it: read from the TLS session by transport, checked
/// by expectations, printed by reports.
public struct CertificateSummary: Sendable, Equatable {
    /// RFC 2253 form, e.g. `CN=api.lab.test,O=runner lab`.
    public var subject: String
    public var issuer: String
    public var notBefore: Date?
    public var notAfter: Date?
    /// DNS names and IP addresses from subjectAltName.
    public var subjectAltNames: [String]
    /// The serial number, lower-case hex without leading zeros; nil when not read.
    public var serialNumber: String?
    /// SHA-256 of the certificate's DER in lower-case hex: its fingerprint; nil when not read.
    public var sha256Fingerprint: String?

    public init(subject: String, issuer: String, notBefore: Date? = nil, notAfter: Date?, subjectAltNames: [String]) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectAltNames = subjectAltNames
    }
}
