import Dispatch

/// Where the engine reads the time for TTLs, timeouts and durations, `RunClock`'s monotonic
/// half: the machine's uptime clock in a run, a clock the test moves by hand in tests.
struct MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point.
    let now: @Sendable () -> UInt64

    static let system = MonotonicClock { DispatchTime.now().uptimeNanoseconds }

    /// The same time as a duration since the clock's fixed point, as the engine's state
    /// machines take it.
    var reading: Duration { .nanoseconds(Int64(clamping: now())) }

    /// The time from `start` (a `now()`) to now.
    func elapsed(since start: UInt64) -> Duration {
        Self.between(start, now())
    }

    /// The time from `start` to `end`, two `now()` readings.
    static func between(_ start: UInt64, _ end: UInt64) -> Duration {
        .nanoseconds(Int64(clamping: end) - Int64(clamping: start))
    }
}
