/// An app's Network Security Configuration (`res/xml/network_security_config.xml`), read as
/// Android reads it (AOSP `XmlConfigSource`).
public struct AndroidNetworkSecurityConfig: Sendable, Hashable {
    /// The path given to `parse`, for the policies' `source`.
    public var path: String
    public var baseConfig: AndroidDomainConfig?
    /// Every domain-config, nested ones included, in document order (a parent before its children).
    public var domainConfigs: [AndroidDomainConfig]
    /// `<debug-overrides>`' anchors, kept only when the app is debuggable (nil otherwise or without one).
    public var debugAnchors: [AndroidTrustAnchor]?

    public init(path: String, baseConfig: AndroidDomainConfig?, domainConfigs: [AndroidDomainConfig], debugAnchors: [AndroidTrustAnchor]?) {
        self.path = path
        self.baseConfig = baseConfig
        self.domainConfigs = domainConfigs
        self.debugAnchors = debugAnchors
    }

    /// An app without a Network Security Config: the platform's defaults for its target SDK.
    public static let platformDefault = AndroidNetworkSecurityConfig(path: "", baseConfig: nil, domainConfigs: [], debugAnchors: nil)
}
