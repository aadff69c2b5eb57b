/// The one clock a run reads: its monotonic half for TTLs, timeouts and durations, its wall
/// half for the dates a run and its suites start at, cookie and certificate dates, and the time
/// signed HTTPDNS queries carry. The machine's in a run (`RunOptions.clock`), one a test moves
/// by hand in tests; nothing else in the engine reads `Date()` or `DispatchTime.now()`.
public struct RunClock: Sendable {
    let monotonic: MonotonicClock
    let wall: WallClock

    init(monotonic: MonotonicClock, wall: WallClock) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The machine's uptime and calendar clocks.
    public static let system = RunClock(monotonic: .system, wall: .system)
}
