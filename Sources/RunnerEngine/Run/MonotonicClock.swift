import Dispatch

/// Where the engine reads the time for TTLs and timeouts: the machine's uptime clock in a run,
/// a clock the test moves by hand in tests.
struct MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point.
    let now: @Sendable () -> UInt64

    static let system = MonotonicClock { DispatchTime.now().uptimeNanoseconds }

    /// The same time in seconds, as results report durations.
    var seconds: Double { Double(now()) / 1e9 }
}
