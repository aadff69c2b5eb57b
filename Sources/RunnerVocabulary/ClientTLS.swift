/// What the client offers and accepts in the handshake (the plan's `tls:`), a profile already
/// folded in: part of a connection's identity, so different settings never share one.
public struct ClientTLS: Sendable, Hashable {
    public var minVersion: TLSVersion?
    public var maxVersion: TLSVersion?
    /// OpenSSL cipher names for TLS 1.2 and below, in preference order; empty: OpenSSL's default.
    public var ciphers: [String]
    /// TLS 1.3 suite names; empty: OpenSSL's default.
    public var tls13Ciphers: [String]
    /// Group (curve) names; empty: OpenSSL's default.
    public var curves: [String]
    /// The platform whose rules the leaf must also meet after the handshake.
    public var profile: TLSProfile?

    public init(
        minVersion: TLSVersion? = nil, maxVersion: TLSVersion? = nil, ciphers: [String] = [], tls13Ciphers: [String] = [],
        curves: [String] = [], profile: TLSProfile? = nil
    ) {
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        self.ciphers = ciphers
        self.tls13Ciphers = tls13Ciphers
        self.curves = curves
        self.profile = profile
    }

    /// Nothing limited: libcurl's and OpenSSL's defaults.
    public var isDefault: Bool {
        minVersion == nil && maxVersion == nil && ciphers.isEmpty && tls13Ciphers.isEmpty && curves.isEmpty && profile == nil
    }

    /// The limits in a few words, for a diagnosis: `min_version 1.3`, `ciphers AES128-SHA`.
    public var limitsText: String {
        var parts: [String] = []
        if let minVersion { parts.append("min_version \(minVersion.rawValue)") }
        if let maxVersion { parts.append("max_version \(maxVersion.rawValue)") }
        if !ciphers.isEmpty { parts.append("ciphers \(ciphers.joined(separator: ":"))") }
        if !tls13Ciphers.isEmpty { parts.append("tls13_ciphers \(tls13Ciphers.joined(separator: ":"))") }
        if !curves.isEmpty { parts.append("curves \(curves.joined(separator: ":"))") }
        return parts.joined(separator: ", ")
    }
}
