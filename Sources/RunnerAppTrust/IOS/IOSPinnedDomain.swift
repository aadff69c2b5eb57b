/// One `NSPinnedDomains` entry (iOS 14+).
public struct IOSPinnedDomain: Sendable, Hashable {
    /// The key lower-cased, one trailing dot dropped.
    public var name: String
    /// One label deep: `a.example.com` for `example.com`, not `b.a.example.com`.
    public var includesSubdomains: Bool
    /// `NSPinnedLeafIdentities`' `SPKI-SHA256-BASE64` values.
    public var leafPins: [String]
    /// `NSPinnedCAIdentities`' `SPKI-SHA256-BASE64` values.
    public var caPins: [String]
    public var line: Int

    public init(name: String, includesSubdomains: Bool, leafPins: [String], caPins: [String], line: Int) {
        self.name = name
        self.includesSubdomains = includesSubdomains
        self.leafPins = leafPins
        self.caPins = caPins
        self.line = line
    }
}
