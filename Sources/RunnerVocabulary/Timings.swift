/// Each phase's own duration in seconds (not curl's cumulative values); nil when the phase did
/// not happen.
public struct Timings: Sendable, Equatable {
    public var resolve: Double?
    public var connect: Double?
    public var tls: Double?
    /// From the start of the hop to the first response byte.
    public var firstByte: Double?
    public var total: Double?

    public init(resolve: Double? = nil, connect: Double? = nil, tls: Double? = nil, firstByte: Double? = nil, total: Double? = nil) {
        self.resolve = resolve
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }

    /// Each phase with the name the reports show it by, in order (`resolve`, …, `total`).
    public var named: [(name: StaticString, seconds: Double?)] {
        [("resolve", resolve), ("connect", connect), ("tls", tls), ("first byte", firstByte), ("total", total)]
    }
}
