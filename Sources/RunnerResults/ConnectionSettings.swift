import RunnerVocabulary

/// How a scenario's transfers were set up beyond each hop's connection: the HTTP version asked
/// for and the time limits. What a reproduction needs, with each hop's `HopConnection`, to send
/// the same.
public struct ConnectionSettings: Sendable, Equatable {
    public var http: HTTPVersion
    /// The whole transfer, redirects included.
    public var timeout: Duration
    public var connectTimeout: Duration

    public init(http: HTTPVersion, timeout: Duration, connectTimeout: Duration) {
        self.http = http
        self.timeout = timeout
        self.connectTimeout = connectTimeout
    }
}
