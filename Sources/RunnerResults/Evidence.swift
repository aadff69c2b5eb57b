import Foundation

/// What the runner did and saw for one result: the proof behind its verdict.
public struct Evidence: Sendable {
    public var strategy: String
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

    public init(strategy: String, ipSource: String, insecure: Bool, hops: [HopEvidence] = [], notes: [String] = []) {
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
    /// The URL handed to libcurl (the IP URL under header-only and trust-override).
    public var urlSent: String
    /// The `Host:` header sent.
    public var hostHeader: String
    /// The SNI name sent; nil when the handshake carried none (or the hop was plain HTTP).
    public var sni: String?
    /// The IP the strategy pinned (nil under `system`).
    public var pinnedIP: String?
    /// The address actually connected to, as libcurl reports it.
    public var connectedIP: String?
    public var connectedPort: Int?
    /// `1.0`, `1.1`, `2` or `3`.
    public var httpVersion: String?
    public var status: Int?
    public var certificate: CertificateSummary?
    public var timings: Timings
    /// Whether this hop opened a new connection (false: it reused one).
    public var newConnection: Bool?
    /// Bytes of response body received, and its SHA-256 (hex).
    public var bodyLength: Int?
    public var bodySHA256: String?

    public init(
        method: String, originalURL: String, urlSent: String, hostHeader: String, sni: String?,
        pinnedIP: String?, timings: Timings = Timings()
    ) {
        self.method = method
        self.originalURL = originalURL
        self.urlSent = urlSent
        self.hostHeader = hostHeader
        self.sni = sni
        self.pinnedIP = pinnedIP
        self.timings = timings
    }
}

/// The server certificate of a TLS hop.
public struct CertificateSummary: Sendable, Equatable {
    public var subject: String
    public var issuer: String
    public var notAfter: Date?
    /// DNS names and IPs in the subjectAltName extension.
    public var subjectAltNames: [String]

    public init(subject: String, issuer: String, notAfter: Date?, subjectAltNames: [String]) {
        self.subject = subject
        self.issuer = issuer
        self.notAfter = notAfter
        self.subjectAltNames = subjectAltNames
    }
}

/// Each phase's own duration in seconds (not cumulative); nil when the phase did not happen.
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
}
