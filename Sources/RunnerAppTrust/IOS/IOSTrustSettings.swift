/// An app's trust rules from its Info.plist: App Transport Security (`NSAppTransportSecurity`),
/// its `NSPinnedDomains`, and TrustKit's `TSKConfiguration` when the app embeds TrustKit.
public struct IOSTrustSettings: Sendable, Hashable {
    public var path: String
    /// `NSAllowsArbitraryLoads` after its ignore rules (false when `NSAllowsLocalNetworking`,
    /// `NSAllowsArbitraryLoadsInWebContent` or `…ForMedia` is present, or it is not a boolean).
    public var allowsArbitraryLoads: Bool
    /// `NSAllowsLocalNetworking`: unqualified names and `.local` names are left alone.
    public var allowsLocalNetworking: Bool
    public var exceptionDomains: [ATSException]
    public var pinnedDomains: [IOSPinnedDomain]
    /// Nil when the Info.plist has no `TSKConfiguration`.
    public var trustKitDomains: [TrustKitDomain]?

    public init(
        path: String, allowsArbitraryLoads: Bool, allowsLocalNetworking: Bool, exceptionDomains: [ATSException],
        pinnedDomains: [IOSPinnedDomain], trustKitDomains: [TrustKitDomain]?
    ) {
        self.path = path
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsLocalNetworking = allowsLocalNetworking
        self.exceptionDomains = exceptionDomains
        self.pinnedDomains = pinnedDomains
        self.trustKitDomains = trustKitDomains
    }
}
