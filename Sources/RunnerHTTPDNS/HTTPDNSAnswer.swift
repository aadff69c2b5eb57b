import RunnerPlan

/// What a service answered for one host (one query).
package struct HTTPDNSAnswer: Equatable, Sendable {
    /// As the service listed them (v4 before v6 within one answer).
    package var addresses: [IPAddress]
    /// Seconds, when the answer carried one.
    package var ttl: Int?
    /// The client address the service saw (dnspod `|clientip` suffix, alibaba `client_ip`,
    /// alibaba-v2 `data.cip`).
    package var clientIP: String?
    /// The CNAME chain a DNS answer went through to the addresses (`doh`, a DNS server).
    package var aliases: [String] = []

    package init(addresses: [IPAddress], ttl: Int? = nil, clientIP: String? = nil) {
        self.addresses = addresses
        self.ttl = ttl
        self.clientIP = clientIP
    }
}
