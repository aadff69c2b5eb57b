/// A `<base-config>` or `<domain-config>`: the values it sets itself (nil: inherited).
public struct AndroidDomainConfig: Sendable, Hashable {
    /// Empty for base-config.
    public var domains: [AndroidDomain]
    public var cleartextTrafficPermitted: Bool?
    /// Nil without `<trust-anchors>` (inherited); empty with an empty one (nothing trusted).
    public var trustAnchors: [AndroidTrustAnchor]?
    public var pinSet: AndroidPinSet?
    /// The enclosing domain-config's index in `AndroidNetworkSecurityConfig.domainConfigs`
    /// (nil at the top level: the parent is base-config).
    public var parentIndex: Int?
    /// Where the element starts.
    public var line: Int

    public init(
        domains: [AndroidDomain], cleartextTrafficPermitted: Bool?, trustAnchors: [AndroidTrustAnchor]?,
        pinSet: AndroidPinSet?, parentIndex: Int?, line: Int
    ) {
        self.domains = domains
        self.cleartextTrafficPermitted = cleartextTrafficPermitted
        self.trustAnchors = trustAnchors
        self.pinSet = pinSet
        self.parentIndex = parentIndex
        self.line = line
    }
}
