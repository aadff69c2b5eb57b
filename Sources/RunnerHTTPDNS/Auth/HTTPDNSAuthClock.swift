import Foundation

/// Expiry times from an injected `now` (the schemes never read the clock themselves).
enum HTTPDNSAuthClock {
    /// `now + validFor` in whole Unix milliseconds, rounded down.
    static func expiryMilliseconds(now: Date, validFor: Duration) -> Int64 {
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, attoseconds) = validFor.components
        return nowMilliseconds + seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
