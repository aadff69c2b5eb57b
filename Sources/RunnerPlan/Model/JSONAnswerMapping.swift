/// Where a `format: json` answer keeps its addresses and TTL (`answer:` of the map).
public struct JSONAnswerMapping: Sendable, Equatable {
    /// IPv4 addresses (or addresses of either family): required.
    public var ips: JSONPath
    /// IPv6 addresses, when the service lists them apart.
    public var ipv6: JSONPath?
    /// Seconds the answer may be cached.
    public var ttl: JSONPath?

    public init(ips: JSONPath, ipv6: JSONPath? = nil, ttl: JSONPath? = nil) {
        self.ips = ips
        self.ipv6 = ipv6
        self.ttl = ttl
    }
}
