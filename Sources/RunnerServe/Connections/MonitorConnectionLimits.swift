/// How long and how many connections `serve`'s HTTP server keeps: what `--request-timeout`,
/// `--idle-timeout` and `--max-connections` (after the descriptor budget) set.
public struct MonitorConnectionLimits: Sendable, Equatable {
    /// A request (its head; no body is taken) must be complete this long after the connection
    /// opened or after its first byte on a kept-alive connection; a response must be written
    /// within as long.
    public var requestTimeout: Duration
    /// A kept-alive connection with no request in progress is closed after this long.
    public var idleTimeout: Duration
    /// Connections open at once; a new one beyond it closes the oldest that is not being answered.
    public var maxConnections: Int

    /// Limits as the command line set them (the cap already fitted to the descriptor budget).
    public init(requestTimeout: Duration, idleTimeout: Duration, maxConnections: Int) {
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    /// How long a connection refused or answered with `Connection: close` may still send (what
    /// it sends is read and dropped) before it is closed: enough for its bytes already in flight,
    /// so that the close does not reset the connection before the client has read the answer.
    public var linger: Duration { min(requestTimeout, .seconds(2)) }
}
