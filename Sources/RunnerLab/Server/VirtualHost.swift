/// One lab address and how it picks the certificate to present from the client's SNI.
struct VirtualHost: Sendable {
    let address: String
    /// Presented when the client sends no SNI or a name not in `identitiesBySNI`.
    let defaultIdentity: TLSIdentity
    /// Keyed by lower-cased server name.
    let identitiesBySNI: [String: TLSIdentity]

    init(address: String, defaultIdentity: TLSIdentity, identitiesBySNI: [String: TLSIdentity] = [:]) {
        self.address = address
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
    static func labHosts(_ certificates: LabCertificates) -> [VirtualHost] {
        [
            VirtualHost(address: LabAddress.primary, defaultIdentity: certificates.primary),
            VirtualHost(
                address: LabAddress.sniOnly, defaultIdentity: certificates.sniDefault,
                identitiesBySNI: ["sni.lab.test": certificates.sni]),
            VirtualHost(address: LabAddress.expired, defaultIdentity: certificates.expired),
            VirtualHost(address: LabAddress.replica, defaultIdentity: certificates.primary),
            VirtualHost(address: LabAddress.ipv6, defaultIdentity: certificates.primary),
        ]
    }
}
