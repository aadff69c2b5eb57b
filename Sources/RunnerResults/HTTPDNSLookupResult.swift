/// One question to an HTTPDNS service during the run — a map's service asked for a host — and
/// how it went, whatever the map's `fallback:` then did (monitoring must see a service that
/// fails even when its fallback saved the results).
public struct HTTPDNSLookupResult: Sendable, Equatable {
    /// The domain map whose service was asked.
    public var map: String
    public var host: String
    /// The user population the service was asked as (`clients:`); nil: as this machine.
    public var client: String?
    /// Whether the service gave at least one address.
    public var succeeded: Bool
    /// From the first query sent to the answer read (every query of the lookup, each service
    /// address tried).
    public var duration: Duration
    /// How many addresses the service's answer held (0 when the lookup failed).
    public var addressCount: Int

    public init(map: String, host: String, client: String? = nil, succeeded: Bool, duration: Duration, addressCount: Int) {
        self.map = map
        self.host = host
        self.client = client
        self.succeeded = succeeded
        self.duration = duration
        self.addressCount = addressCount
    }
}
