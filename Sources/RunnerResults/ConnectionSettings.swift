import RunnerVocabulary

/// How a scenario's transfers were set up beyond each hop's request: the HTTP version asked
/// for, the trust anchors and the time limits. What a reproduction needs to send the same.
public struct ConnectionSettings: Sendable, Equatable {
    public var http: HTTPVersion
    /// Extra trust anchors (a PEM file); nil for the system store.
    public var caFile: String?
    /// The whole transfer, redirects included.
    public var timeout: Duration
    public var connectTimeout: Duration
    /// What the client offered in the handshake (`tls:`); nil for the defaults.
    public var tls: ClientTLS?

    public init(http: HTTPVersion, caFile: String?, timeout: Duration, connectTimeout: Duration, tls: ClientTLS? = nil) {
        self.http = http
        self.caFile = caFile
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.tls = tls
    }
}
