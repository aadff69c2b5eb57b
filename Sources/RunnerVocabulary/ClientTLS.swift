/// What the client offers and accepts in the handshake (the plan's `tls:`), a profile already
/// folded in: part of a connection's identity, so different settings never share one.
public struct ClientTLS: Sendable, Hashable {
    public var minVersion: TLSVersion?
    public var maxVersion: TLSVersion?
    /// OpenSSL cipher names for TLS 1.2 and below, in preference order, as OpenSSL's list writes
    /// them (`A:B`); empty: OpenSSL's default. The lists are kept joined, as made once with the
    /// plan: every transfer hands them to libcurl as they are, and every connection's key hashes them.
    public let cipherList: String
    /// TLS 1.3 suite names, `:`-separated; empty: OpenSSL's default.
    public let tls13CipherList: String
    /// Group (curve) names, `:`-separated; empty: OpenSSL's default.
    public let curveList: String
    /// The platform whose rules the leaf must also meet after the handshake.
    public var profile: TLSProfile?

    public init(
        minVersion: TLSVersion? = nil, maxVersion: TLSVersion? = nil, ciphers: [String] = [], tls13Ciphers: [String] = [],
        curves: [String] = [], profile: TLSProfile? = nil
    ) {
        // Most scenarios limit nothing: their empty lists cost no join.
        self.init(
            minVersion: minVersion, maxVersion: maxVersion, cipherList: ciphers.isEmpty ? "" : ciphers.joined(separator: ":"),
            tls13CipherList: tls13Ciphers.isEmpty ? "" : tls13Ciphers.joined(separator: ":"),
            curveList: curves.isEmpty ? "" : curves.joined(separator: ":"), profile: profile)
    }

    /// The lists already joined (`A:B`), e.g. a profile's, made once for the whole plan.
    public init(
        minVersion: TLSVersion?, maxVersion: TLSVersion?, cipherList: String, tls13CipherList: String, curveList: String,
        profile: TLSProfile?
    ) {
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        self.cipherList = cipherList
        self.tls13CipherList = tls13CipherList
        self.curveList = curveList
        self.profile = profile
    }

    /// Hashes what tells settings apart cheaply: the versions, the profile and the lists'
    /// lengths. Every transfer's pool key hashes this, and a profile's cipher list is some 300
    /// bytes; equal settings still hash equal, and `==` compares the lists themselves.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(minVersion)
        hasher.combine(maxVersion)
        hasher.combine(profile)
        hasher.combine(cipherList.utf8.count)
        hasher.combine(tls13CipherList.utf8.count)
        hasher.combine(curveList.utf8.count)
    }

    /// The TLS 1.2 cipher names, in preference order.
    public var ciphers: [String] { Self.names(cipherList) }
    /// The TLS 1.3 suite names.
    public var tls13Ciphers: [String] { Self.names(tls13CipherList) }
    /// The group names.
    public var curves: [String] { Self.names(curveList) }

    private static func names(_ list: String) -> [String] {
        list.isEmpty ? [] : list.split(separator: ":").map(String.init)
    }

    /// Nothing limited: libcurl's and OpenSSL's defaults.
    public var isDefault: Bool {
        minVersion == nil && maxVersion == nil && cipherList.isEmpty && tls13CipherList.isEmpty && curveList.isEmpty
            && profile == nil
    }

    /// The limits in a few words, for a diagnosis: `min_version 1.3`, `ciphers AES128-SHA`.
    public var limitsText: String {
        var parts: [String] = []
        if let minVersion { parts.append("min_version \(minVersion.rawValue)") }
        if let maxVersion { parts.append("max_version \(maxVersion.rawValue)") }
        if !cipherList.isEmpty { parts.append("ciphers \(cipherList)") }
        if !tls13CipherList.isEmpty { parts.append("tls13_ciphers \(tls13CipherList)") }
        if !curveList.isEmpty { parts.append("curves \(curveList)") }
        return parts.joined(separator: ", ")
    }
}
