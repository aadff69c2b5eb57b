/// A TLS protocol version as a plan writes it (`"1.2"`), OpenSSL names it (`TLSv1.2`) and
/// reports show it (`TLS 1.2`).
public enum TLSVersion: String, Sendable, Hashable, CaseIterable, Comparable {
    case v1_0 = "1.0"
    case v1_1 = "1.1"
    case v1_2 = "1.2"
    case v1_3 = "1.3"

    /// The version OpenSSL's `SSL_get_version` names (`TLSv1.3`); nil for anything else.
    public init?(openSSLName: String) {
        switch openSSLName {
        case "TLSv1": self = .v1_0
        case "TLSv1.1": self = .v1_1
        case "TLSv1.2": self = .v1_2
        case "TLSv1.3": self = .v1_3
        default: return nil
        }
    }

    /// `TLS 1.3`, as blackbox_exporter's `probe_tls_version_info` labels it.
    public var displayName: String { "TLS " + rawValue }

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
