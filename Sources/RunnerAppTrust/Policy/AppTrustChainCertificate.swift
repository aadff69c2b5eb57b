/// One certificate of a verified chain, as the pin check sees it.
public struct AppTrustChainCertificate: Sendable, Hashable {
    /// Base64 of the SHA-256 of the certificate's DER SubjectPublicKeyInfo.
    public var spkiSHA256: String
    /// Base64 of the SHA-1 of the same, for OkHttp's `sha1/` pins (nil when not computed).
    public var spkiSHA1: String?
    /// Whether this is the server's own (end-entity) certificate.
    public var isLeaf: Bool

    public init(spkiSHA256: String, spkiSHA1: String? = nil, isLeaf: Bool) {
        self.spkiSHA256 = spkiSHA256
        self.spkiSHA1 = spkiSHA1
        self.isLeaf = isLeaf
    }
}
