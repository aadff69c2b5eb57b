import RunnerVocabulary

/// What a domain map answered for one host: a row of `runner resolve`.
public struct MapAnswer: Sendable, Equatable {
    /// Whether the map's own source answered, its fallback did, or neither.
    public enum Source: String, Sendable {
        case answer, fallback, error
    }

    /// The plan's file.
    public var plan: String
    public var map: String
    public var host: String
    /// The population the map was asked as; nil: as this machine (the plan names none).
    public var client: String?
    /// The client's labels, by name (empty without a client).
    public var labels: [String: String]
    /// In the order the scenario uses them (IPv4 first under `ip_version: any`).
    public var addresses: [String]
    /// The answer's TTL in seconds, when its source gave one.
    public var ttl: Int?
    public var source: Source
    /// Where the answer came from (`httpdns 'ali' (alibaba)`, `static map 'lab'`, with a
    /// fallback's note), or why there is none.
    public var detail: String
    /// On a map with `sdk:`: what the app's SDK hands out from the answer, and why; nil without
    /// `sdk:` (or without an answer).
    public var pick: [Picked]? = nil

    /// An address the SDK hands out: `127.0.0.2`, `fastest connect, 0.3 ms`.
    public struct Picked: Sendable, Equatable, Encodable {
        public var address: String
        public var reason: String

        public init(address: String, reason: String) {
            self.address = address
            self.reason = reason
        }
    }

    public init(
        plan: String, map: String, host: String, client: String? = nil, labels: [String: String] = [:], addresses: [String],
        ttl: Int?, source: Source, detail: String
    ) {
        self.plan = plan
        self.map = map
        self.host = host
        self.client = client
        self.labels = labels
        self.addresses = addresses
        self.ttl = ttl
        self.source = source
        self.detail = detail
    }
}

/// The row as `runner resolve --json` writes it: every key present, an absent value `null`.
extension MapAnswer: Encodable {
    enum CodingKeys: String, CodingKey {
        case addresses, client, detail, host, labels, map, pick, plan, source, ttl
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(addresses, forKey: .addresses)
        try container.encode(client, forKey: .client)
        try container.encode(detail, forKey: .detail)
        try container.encode(host, forKey: .host)
        try container.encode(labels, forKey: .labels)
        try container.encode(map, forKey: .map)
        try container.encode(pick, forKey: .pick)
        try container.encode(plan, forKey: .plan)
        try container.encode(source.rawValue, forKey: .source)
        try container.encode(ttl, forKey: .ttl)
    }
}
