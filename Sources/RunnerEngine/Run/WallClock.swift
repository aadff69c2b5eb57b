import Foundation

/// Where the engine reads the calendar time, `RunClock`'s wall half: the dates a run, a suite
/// and cookies and certificates are judged at, and the time signed HTTPDNS queries carry (an
/// expiry is `now + valid_for`). The machine's clock in a run, a shifted one in tests.
struct WallClock: Sendable {
    let now: @Sendable () -> Date

    static let system = WallClock { Date() }
}
