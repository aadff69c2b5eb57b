import Foundation

/// One `TSKPinnedDomains` entry of TrustKit's `TSKConfiguration`.
public struct TrustKitDomain: Sendable, Hashable {
    /// The key as written (TrustKit matches case-sensitively).
    public var name: String
    /// `TSKPublicKeyHashes`: base64 SHA-256 SPKI values.
    public var pins: [String]
    /// `TSKEnforcePinning` (YES): NO only reports a failure.
    public var enforcePinning: Bool
    /// `TSKIncludeSubdomains` (NO): any depth.
    public var includeSubdomains: Bool
    /// `TSKExpirationDate` when it is a `yyyy-MM-dd` day (TrustKit ignores one it cannot read).
    public var expiration: String?
    /// Midnight UTC starting the expiration day.
    public var expiresAt: Date?
    public var line: Int

    public init(
        name: String, pins: [String], enforcePinning: Bool, includeSubdomains: Bool, expiration: String?, expiresAt: Date?, line: Int
    ) {
        self.name = name
        self.pins = pins
        self.enforcePinning = enforcePinning
        self.includeSubdomains = includeSubdomains
        self.expiration = expiration
        self.expiresAt = expiresAt
        self.line = line
    }
}
