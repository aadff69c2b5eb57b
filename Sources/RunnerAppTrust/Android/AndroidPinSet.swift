import Foundation

/// A domain-config's `<pin-set>`.
public struct AndroidPinSet: Sendable, Hashable {
    /// Base64 SHA-256 SPKI digests.
    public var pins: [String]
    /// `yyyy-MM-dd` as written, nil without `expiration`.
    public var expiration: String?
    /// Midnight starting the expiration day, UTC: from then the pins are ignored.
    public var expiresAt: Date?

    public init(pins: [String], expiration: String?, expiresAt: Date?) {
        self.pins = pins
        self.expiration = expiration
        self.expiresAt = expiresAt
    }
}
