import Foundation

extension AppTrustPolicy {
    /// When the pins stop applying: midnight UTC starting `pinsExpire` (nil without an expiry).
    public var pinsExpiry: Date? { pinsExpire.flatMap(CalendarDay.init)?.midnightUTC }
}
