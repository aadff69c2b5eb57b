extension Duration {
    /// The duration in seconds, as a report writes it (Prometheus, JUnit's `time`).
    public var inSeconds: Double {
        let (seconds, attoseconds) = splitComponents
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in milliseconds, as a report writes it (the JSON report's `*_ms`, the text's `12.345 ms`).
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = splitComponents
        return Double(seconds) * 1000 + Double(attoseconds) * 1e-15
    }

    /// `components`: a duration under about nine seconds (nearly every one a report writes,
    /// several times a result) split in 64 bits, the same truncating division without the
    /// 128-bit one `components` makes (some 190 instructions a call).
    @inlinable
    var splitComponents: (seconds: Int64, attoseconds: Int64) {
        guard let attoseconds = Int64(exactly: attoseconds) else { return components }
        let perSecond: Int64 = 1_000_000_000_000_000_000
        return (attoseconds / perSecond, attoseconds % perSecond)
    }
}
