import NIOCore

/// A point on a made-up monotonic clock, `seconds` after its origin: the state machines take the
/// time as an argument, so no test reads the real clock or sleeps.
func at(_ seconds: Double) -> NIODeadline {
    // Far from zero, so that a deadline computed before the origin would still be representable.
    .uptimeNanoseconds(1_000_000_000_000 + UInt64(seconds * 1_000_000_000))
}
