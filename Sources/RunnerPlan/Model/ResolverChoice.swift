/// Which DNS resolver answers where the machine's would (`resolver:`): strategy `system`, the
/// implicit `system` domain map, and a map's `fallback: system`.
public enum ResolverChoice: Sendable, Hashable, CustomStringConvertible {
    /// The machine's resolver, as libcurl asks it.
    case system
    /// A DNS server asked directly, by address (port 53 unless the plan says otherwise).
    case server(IPAddress, port: Int)

    public static let dnsPort = 53

    /// `system`, `IP`, `IP:PORT`, `[IPv6]` or `[IPv6]:PORT`; nil for anything else (a host name
    /// among them: a resolver is found by its address, not by asking another).
    public init?(_ text: String) {
        if text == "system" {
            self = .system
            return
        }
        if let address = IPAddress(text) {
            // A bare IPv6 literal, brackets or not, or an IPv4 one: the DNS port.
            self = .server(address, port: Self.dnsPort)
            return
        }
        // `IP:PORT` or `[IPv6]:PORT`: the port after the last ':' that follows the address.
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port), !text[text.index(after: colon)...].hasPrefix("+")
        else { return nil }
        let host = text[..<colon]
        let isBracketed = host.hasPrefix("[") && host.hasSuffix("]")
        guard let address = IPAddress(String(host)), isBracketed == (address.family == .v6) else { return nil }
        self = .server(address, port: port)
    }

    /// As a plan writes it: `system`, `192.0.2.53` (port 53 goes without saying),
    /// `192.0.2.53:5353`, `[2001:db8::53]:5353`.
    public var description: String {
        switch self {
        case .system: "system"
        case .server(let address, let port) where port == Self.dnsPort: address.text
        case .server(let address, let port): "\(address.urlHost):\(port)"
        }
    }
}

/// `expect.dns`: what the resolver may answer.
public struct DNSExpectation: Sendable, Equatable {
    /// Every address the resolver returns must be in the answer of one of these domain maps.
    public var within: [String]

    public init(within: [String]) {
        self.within = within
    }
}
