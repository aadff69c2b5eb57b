/// One lab address: how it picks the certificate to present from the client's SNI, and what it offers by ALPN.
struct VirtualHost: Sendable {
    let address: String
    /// What the TLS port offers by ALPN; the plain HTTP port is HTTP/1.1 whatever this says.
    let applicationProtocols: ApplicationProtocols
    /// Presented when the client sends no SNI or a name not in `identitiesBySNI`.
    let defaultIdentity: TLSIdentity
    /// Keyed by lower-cased server name.
    let identitiesBySNI: [String: TLSIdentity]
    /// What the TLS port does with a ClientHello; the plain HTTP port serves normally whatever this says.
    let handshake: Handshake

    /// How the TLS port treats a client's handshake.
    enum Handshake: Sendable {
        /// Completes it and serves HTTP.
        case normal
        /// Reads the whole ClientHello, then closes the connection without answering.
        case closeAfterClientHello
    }

    init(
        address: String, applicationProtocols: ApplicationProtocols = .http2AndHTTP1, defaultIdentity: TLSIdentity,
        identitiesBySNI: [String: TLSIdentity] = [:], handshake: Handshake = .normal
    ) {
        self.handshake = handshake
        self.address = address
        self.applicationProtocols = applicationProtocols
        self.defaultIdentity = defaultIdentity
        self.identitiesBySNI = identitiesBySNI
    }

    /// The certificate for this address given the SNI the client sent (`nil`: none).
    func identity(forServerName serverName: String?) -> TLSIdentity {
        // DNS names are case-insensitive, and so is SNI matching in real servers.
        guard let name = serverName?.lowercased(), let identity = identitiesBySNI[name] else {
            return defaultIdentity
        }
        return identity
    }

    /// The lab's vhosts, one per `LabAddress`, in `LabAddress.all` order.
    static func labHosts(_ certificates: LabCertificates, benchEdges: Int = 0) -> [VirtualHost] {
        (0..<benchEdges).map {
            VirtualHost(address: LabAddress.benchEdge($0 + 1), defaultIdentity: certificates.primary)
        } + [
            VirtualHost(address: LabAddress.primary, defaultIdentity: certificates.primary),
            VirtualHost(
                address: LabAddress.sniOnly, defaultIdentity: certificates.sniDefault,
                identitiesBySNI: ["sni.lab.test": certificates.sni]),
            VirtualHost(address: LabAddress.expired, defaultIdentity: certificates.expired),
            // HTTP/1.1 only, so connection reuse stays observable as keep-alive whatever the client prefers.
            VirtualHost(
                address: LabAddress.replica, applicationProtocols: .http1Only, defaultIdentity: certificates.primary),
            VirtualHost(address: LabAddress.ipv6, defaultIdentity: certificates.primary),
            VirtualHost(
                address: LabAddress.handshakeCloser, defaultIdentity: certificates.primary,
                handshake: .closeAfterClientHello),
            VirtualHost(address: LabAddress.impostor, defaultIdentity: certificates.primary),
            VirtualHost(address: LabAddress.staleEdge, defaultIdentity: certificates.stale),
            VirtualHost(address: LabAddress.noForwardSecrecy, defaultIdentity: certificates.noForwardSecrecy),
            VirtualHost(address: LabAddress.tls12, defaultIdentity: certificates.tls12),
            VirtualHost(address: LabAddress.ipOnly, defaultIdentity: certificates.ipOnly),
            VirtualHost(address: LabAddress.fastRankEdge, defaultIdentity: certificates.primary),
            VirtualHost(address: LabAddress.slowRankEdge, defaultIdentity: certificates.primary),
        ]
    }
}
