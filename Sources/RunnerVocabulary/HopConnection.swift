/// How one hop reaches its server under a strategy — the URL libcurl is given, the address it
/// connects to, the names it sends (Host, SNI) and the TLS it trusts and offers: decided by the
/// strategy rules, carried out by the transport, kept in the evidence and replayed by the curl
/// line. One value, so no layer copies it field by field.
public struct HopConnection: Sendable, Hashable {
    /// The concrete strategy (`auto` decided): the result's, unless a redirect changed scheme
    /// (an https→http hop under trust override goes header-only).
    public var strategy: StrategyKind
    /// The URL handed to libcurl (the IP URL under header-only and trust-override).
    public var urlSent: String
    /// The `Host:` header the request carries.
    public var hostHeader: String
    /// Whether the runner sets `Host:` itself (header-only, trust-override); otherwise curl
    /// derives it from `urlSent`.
    public var setsHostHeader: Bool
    /// curl's `--connect-to` value (sni-resolve, and `system` asking its own resolver):
    /// `HOST:PORT:IP:PORT`.
    public var connectTo: String?
    /// The SNI name the handshake carries; nil for none (an IP URL) or plain HTTP.
    public var sni: String?
    /// The IP the strategy pinned (nil under `system` unless the runner asked the resolver itself).
    public var pinnedIP: String?
    /// What the connection trusts and how it checks the server.
    public var tls: ConnectionTLS

    public init(
        strategy: StrategyKind, urlSent: String, hostHeader: String, setsHostHeader: Bool = false,
        connectTo: String? = nil, sni: String?, pinnedIP: String?, tls: ConnectionTLS = ConnectionTLS()
    ) {
        self.strategy = strategy
        self.urlSent = urlSent
        self.hostHeader = hostHeader
        self.setsHostHeader = setsHostHeader
        self.connectTo = connectTo
        self.sni = sni
        self.pinnedIP = pinnedIP
        self.tls = tls
    }
}
