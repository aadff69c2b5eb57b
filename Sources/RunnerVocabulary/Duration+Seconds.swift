extension Duration {
    /// The duration in seconds, as a report writes it (Prometheus, JUnit's `time`).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in milliseconds, as a report writes it (the JSON report's `*_ms`, the text's `12.345 ms`).
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) * 1e-15
    }
}
