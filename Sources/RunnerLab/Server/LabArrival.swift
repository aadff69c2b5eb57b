/// One request as the lab read it, for a test to compare with another client's: where it
/// arrived, with which SNI and Host, its method, target and body.
public struct LabArrival: Sendable, Equatable {
    /// The lab address the connection was accepted on.
    public var address: String
    /// The SNI name of the TLS handshake; nil for none or plain HTTP.
    public var sni: String?
    public var tls: Bool
    /// `Host`, or `:authority` over HTTP/2.
    public var host: String?
    public var method: String
    /// The request target as sent: path and query.
    public var target: String
    public var bodySHA256: String
}
