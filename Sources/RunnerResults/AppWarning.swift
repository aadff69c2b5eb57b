/// Something about an app's trust rules that does not fail the result (unless `--strict`) but
/// will: pins that no longer apply or soon will not, a pin set without a backup key, and the IP
/// gap (pins written for the name that IP direct leaves off).
public struct AppWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The pin-set's expiration has passed: the app accepts any chain its anchors trust.
        case pinsExpired = "pins-expired"
        /// The pin-set expires within the app's `pin_warn`.
        case pinsExpiring = "pins-expiring"
        /// The pins match only the leaf served now: a new key fails every connection.
        case noBackupPin = "no-backup-pin"
        /// Pins written for the name do not apply: the stack keys its rules on the IP.
        case pinsNotApplied = "pins-not-applied"
    }

    public var kind: Kind
    /// The app's name in the plan.
    public var app: String
    public var message: String

    public init(kind: Kind, app: String, message: String) {
        self.kind = kind
        self.app = app
        self.message = message
    }

    /// `pins-expiring: …`: the evidence line.
    public var description: String { "\(kind.rawValue): \(message)" }
}
