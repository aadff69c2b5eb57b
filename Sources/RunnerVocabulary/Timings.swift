/// Each phase's own duration (not curl's cumulative values); nil when the phase did not happen.
public struct Timings: Sendable, Equatable {
    public var resolve: Duration?
    public var connect: Duration?
    public var tls: Duration?
    /// From the start of the hop to the first response byte.
    public var firstByte: Duration?
    public var total: Duration?

    public init(
        resolve: Duration? = nil, connect: Duration? = nil, tls: Duration? = nil, firstByte: Duration? = nil,
        total: Duration? = nil
    ) {
        self.resolve = resolve
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }

    /// Each phase with the name the reports show it by, in order (`resolve`, …, `total`).
    public var named: [(name: StaticString, duration: Duration?)] {
        [("resolve", resolve), ("connect", connect), ("tls", tls), ("first byte", firstByte), ("total", total)]
    }
}
