/// What a connection trusts and how it checks the server: the trust anchors, whether
/// verification is off, the name the certificate is checked against when it is not the URL's
/// host (trust override), and what the client offers (`tls:`). The transfer carries it out,
/// the connection's identity includes it, the evidence keeps it, the curl line replays it.
public struct ConnectionTLS: Sendable, Hashable {
    /// Extra trust anchors (a PEM file); nil: the system store.
    public var caFile: String?
    /// Skip all verification (`insecure: true`).
    public var insecure: Bool
    /// Trust override: verify the certificate's name against this host during the handshake
    /// (OpenSSL's own check), instead of against the URL host.
    public var verifyName: String?
    /// What the client offers: versions, ciphers, groups (the plan's `tls:`).
    public var client: ClientTLS

    public init(caFile: String? = nil, insecure: Bool = false, verifyName: String? = nil, client: ClientTLS = ClientTLS()) {
        self.caFile = caFile
        self.insecure = insecure
        self.verifyName = verifyName
        self.client = client
    }
}
