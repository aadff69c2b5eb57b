import Foundation

/// Where the engine reads the calendar time that signed HTTPDNS queries carry (an expiry is
/// `now + valid_for`): the machine's clock in a run, a shifted one in tests.
struct WallClock: Sendable {
    let now: @Sendable () -> Date

    static let system = WallClock { Date() }
}
