/// Why the pins a file declares are not checked for a request (`runner app show`'s `why_not`).
public enum AppTrustPinsNotEnforced: String, Sendable, Hashable, CaseIterable {
    /// The pin-set's (or TrustKit domain's) expiration date has passed: any trusted chain passes.
    case expired
    /// Every trust anchor of the matched Android config has `overridePins`.
    case overridePins = "override-pins"
    /// The stack keys its rules on the address (IP direct), the pins are the name's: set by the caller.
    case keyedOnAddress = "keyed-on-address"
    /// Nothing is pinned for this host.
    case noPins = "no-pins"
    /// TrustKit with `TSKEnforcePinning` NO: a failure is reported, the connection goes on.
    case reportOnly = "report-only"
}
