/// An HTTPDNS service a map asks: where, in which format, how its queries are authorised,
/// and what to do when it has no answer.
public struct HTTPDNSSpec: Sendable, Equatable {
    /// The answer format, with what it needs to read one (`json`'s paths, `doh`'s method).
    public enum Format: Sendable, Equatable {
        /// DNSPod / Tencent D+ text (`ip;ip,ttl`).
        case dnspod
        /// Alibaba Cloud EMAS JSON.
        case alibaba
        /// Alibaba Cloud EMAS `/v2/d`: the API the current SDKs call, signed (HMAC-SHA256),
        /// optionally encrypted, its answer in a `{"code","mode","data"}` envelope.
        case alibabaV2
        /// DNS-over-HTTPS JSON (`application/dns-json`, Google and Cloudflare style).
        case dohJSON
        /// Any JSON answer, its addresses and TTL picked by JSONPath.
        case json(JSONAnswerMapping)
        /// RFC 8484 DNS-over-HTTPS: DNS messages over GET or POST.
        case doh(method: DoHMethod)

        /// The formats by their plan names.
        public enum Name: String, Sendable, Equatable, CaseIterable {
            case dnspod
            case alibaba
            case alibabaV2 = "alibaba-v2"
            case dohJSON = "doh-json"
            case json
            case doh

            /// Whether the format carries the client it asks as in a field of its own (`doh`: the
            /// EDNS Client Subnet option; `alibaba-v2`: `cip`), so its URL needs no `{client}`.
            public var carriesClient: Bool {
                switch self {
                case .doh, .alibabaV2: true
                case .dnspod, .alibaba, .dohJSON, .json: false
                }
            }
        }

        public var name: Name {
            switch self {
            case .dnspod: .dnspod
            case .alibaba: .alibaba
            case .alibabaV2: .alibabaV2
            case .dohJSON: .dohJSON
            case .json: .json
            case .doh: .doh
            }
        }

        /// Whether the URL names the host with `{host}`; a DoH query carries the name inside
        /// its DNS message instead.
        public var urlNamesHost: Bool {
            switch self {
            case .dnspod, .alibaba, .alibabaV2, .dohJSON, .json: true
            case .doh: false
            }
        }
    }

    /// How an RFC 8484 query travels (`method:` of a `doh` map).
    public enum DoHMethod: String, Sendable, Equatable, CaseIterable {
        /// `?dns=` the message in base64url without padding.
        case get = "GET"
        /// The message as the body, `Content-Type: application/dns-message`.
        case post = "POST"
    }

    /// Where to go when the service gives no address (`fallback:`, else the SDK profile's default).
    public enum Fallback: Sendable, Equatable {
        case none
        case system
        case map(String)
    }

    public var format: Format
    /// URL template; `{host}` is replaced by the URL-encoded host (not in `doh` URLs).
    public var urlTemplate: String
    public var timeout: Duration
    /// The map's `fallback`, or when it has none, its SDK profile's (`SDKProfile.Kind.defaultFallback`), or `none`.
    public var fallback: Fallback
    /// How queries are signed or encrypted; nil for a service that asks for neither.
    public var auth: HTTPDNSAuth?
    /// The service's own addresses, tried in order (the SDKs' bootstrap IPs); empty: the URL's
    /// host is resolved by the machine's resolver (an IP literal needs nothing).
    public var serviceIPs: [IPAddress]
    /// The user populations the service is asked as (`clients:`); nil: as this machine.
    public var clients: ClientSelection?
    /// How long after the service last returned an address it is still checked (`retain:`,
    /// what apps' caches hold); nil: only the current answer is.
    public var retain: Retention?
    /// What the app's SDK does with an answer (`sdk:`); nil: the plan names no SDK.
    public var sdk: SDKProfile?

    /// `retain:`: a window written in the plan, or the one the map's SDK profile gives.
    public enum Retention: Sendable, Equatable {
        /// `retain: DURATION`: this long, whatever the answer's TTL.
        case duration(Duration)
        /// `retain: sdk`: per answer, `SDKProfile.retentionWindow(ttl:)` (the map has `sdk:`).
        case sdk
    }

    /// The longest `retain: DURATION`, and the longest window `retain: sdk` gives without a
    /// persistent cache: 30 days.
    public static let maximumRetention: Duration = .seconds(30 * 24 * 3600)

    /// How long an address of an answer with this TTL is still checked after the service last
    /// returned it; nil without `retain`.
    public func retentionWindow(ttl: Duration?) -> Duration? {
        switch retain {
        case nil: nil
        case .duration(let window): window
        // The decoder refuses `retain: sdk` without `sdk:`; the TTL alone is what any app holds.
        case .sdk: sdk?.retentionWindow(ttl: ttl) ?? ttl ?? .zero
        }
    }

    public init(
        format: Format, urlTemplate: String, timeout: Duration, fallback: Fallback, auth: HTTPDNSAuth? = nil,
        serviceIPs: [IPAddress] = [], clients: ClientSelection? = nil, retain: Retention? = nil, sdk: SDKProfile? = nil
    ) {
        self.format = format
        self.urlTemplate = urlTemplate
        self.timeout = timeout
        self.fallback = fallback
        self.auth = auth
        self.serviceIPs = serviceIPs
        self.clients = clients
        self.retain = retain
        self.sdk = sdk
    }
}
