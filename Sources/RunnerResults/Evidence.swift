import Foundation
import RunnerVocabulary

/// What the runner did and saw for one result: the proof behind its verdict.
public struct Evidence: Sendable {
    public var strategy: StrategyKind
    /// Where the IP came from, e.g. `static map 'builtin'` or `system resolver`.
    public var ipSource: String
    /// True when `insecure: true` skipped certificate verification; every report flags it.
    public var insecure: Bool
    /// Each request sent, in order (one per redirect hop).
    public var hops: [HopEvidence]
    /// Anything else worth knowing (a fallback used, a body cut at `max_body`, …).
    public var notes: [String]
    /// Set when the IP came from a map's fallback because its HTTPDNS service failed: the
    /// failed map's name. Monitoring must see degraded resolution even when the request passed.
    public var resolutionFallbackFrom: String? = nil
    /// What the result captured for the scenarios after it (`capture:`), in the plan's order.
    public var captured: [CaptureRecord] = []
    /// What a resolver answered for each host it was asked during the result (`resolver:`),
    /// in hop order; empty when the addresses came from no resolver the runner asked.
    public var dns: [DNSLookupEvidence] = []
    /// Why `expect.dns` was not checked (the addresses came from no resolver); nil when it was,
    /// or when the scenario has none.
    public var dnsNotChecked: String? = nil
    /// The scenario's connection settings, for reproducing its requests; nil when unknown (a
    /// result read back from a JSON report).
    public var connection: ConnectionSettings? = nil
    /// Whether the final response's chain matched `expect.certificate.pins`; nil when the
    /// scenario has none or no final response was checked.
    public var pinMatch: Bool? = nil
    /// The user populations whose answer held the result's address (a map asked as `clients:`),
    /// in the plan's order; empty when the map asks as this machine.
    public var clients: [ClientIdentity] = []
    /// Set when the address is one the map's service no longer returns but returned within its
    /// `retain:` window (apps' caches still hold it); nil for a current answer's.
    public var retained: RetainedEvidence? = nil
    /// On a map with `sdk:`: the populations whose apps use this address and why, and the
    /// ranking's connects; nil when the map names no SDK.
    public var pick: PickEvidence? = nil
    /// A gRPC call's answer (`request.grpc`): its status, message and serving status; nil for
    /// a plain request, or a call that got no response.
    public var grpc: GRPCAnswer? = nil
    /// The rules each app of the scenario (`app:`) applied to this request, one per app and
    /// platform; empty without `app:`.
    public var appPolicies: [AppPolicyEvidence] = []
    /// What those rules warn of (not failing unless `--strict`).
    public var appWarnings: [AppWarning] = []

    public init(strategy: StrategyKind, ipSource: String, insecure: Bool, hops: [HopEvidence] = [], notes: [String] = []) {
        self.strategy = strategy
        self.ipSource = ipSource
        self.insecure = insecure
        self.hops = hops
        self.notes = notes
    }
}

/// One request on the wire and its response (or how far it got).
public struct HopEvidence: Sendable {
    public var method: String
    /// The URL with the original host (what the plan or `Location` said).
    public var originalURL: String
    /// How the hop reached the server: the URL handed to libcurl, `Host`, connect-to, SNI, the
    /// pinned IP, the strategy and the TLS trusted and offered (as the strategy decided it).
    public var connection: HopConnection
    /// The address actually connected to, as libcurl reports it.
    public var connectedIP: String?
    public var connectedPort: Int?
    /// `1.0`, `1.1`, `2` or `3`.
    public var httpVersion: String?
    public var status: Int?
    public var certificate: CertificateSummary?
    /// The negotiated version and cipher and the chain (verified, leaf first); nil on plain HTTP
    /// or when no handshake completed.
    public var tls: TLSSession?
    public var timings: Timings
    /// Whether this hop opened a new connection (false: it reused one).
    public var newConnection: Bool?
    /// The body length the response declared (`Content-Length`); nil when it declared none
    /// (chunked, or a response without a body). blackbox_exporter's `probe_http_content_length`.
    public var contentLength: Int?
    /// Bytes of response body received, and its SHA-256 (hex).
    public var bodyLength: Int?
    public var bodySHA256: String?
    /// The request's headers as sent, in order, the session's `Cookie` included; `Host` only
    /// when the plan set it (the strategy's is `connection.hostHeader`).
    public var requestHeaders: [Header] = []
    public var requestBody: RequestBody?
    /// The hop's curl line as a report recorded it (`runner merge` reads it back, without the
    /// facts above); nil in a run, whose reports make it from those facts.
    public var reproduction: String?

    /// A hop from its facts; those not given are unknown (nil, or no headers).
    public init(
        method: String, originalURL: String, connection: HopConnection, timings: Timings = Timings(),
        connectedIP: String? = nil, connectedPort: Int? = nil, httpVersion: String? = nil, status: Int? = nil,
        certificate: CertificateSummary? = nil, tls: TLSSession? = nil, newConnection: Bool? = nil,
        contentLength: Int? = nil, bodyLength: Int? = nil, bodySHA256: String? = nil, requestHeaders: [Header] = [],
        requestBody: RequestBody? = nil
    ) {
        self.method = method
        self.originalURL = originalURL
        self.connection = connection
        self.timings = timings
        self.connectedIP = connectedIP
        self.connectedPort = connectedPort
        self.httpVersion = httpVersion
        self.status = status
        self.certificate = certificate
        self.tls = tls
        self.newConnection = newConnection
        self.contentLength = contentLength
        self.bodyLength = bodyLength
        self.bodySHA256 = bodySHA256
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
    }
}

/// A value a result captured (`capture:`): its name, and its text unless it is secret.
public struct CaptureRecord: Sendable, Equatable {
    public var name: String
    /// Nil for a `secret: true` capture: its value reaches no report.
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
