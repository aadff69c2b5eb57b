/// The loopback addresses the lab listens on, each a virtual host with its own certificate policy.
///
/// Linux routes all of 127/8 to the loopback interface, so every address is usable without setup.
/// Every address offers "h2" and "http/1.1" by ALPN on the HTTPS port, except `replica` (HTTP/1.1 only);
/// the plain HTTP port is HTTP/1.1 everywhere.
public enum LabAddress {
    /// One certificate (SANs: api.lab.test, single.lab.test, rank.lab.test, fallback.lab.test, localhost,
    /// IP 127.0.0.2) whatever the SNI. Also serves gRPC: TLS on `Lab.grpcTLSPort`, h2c on `Lab.grpcPlainPort`.
    public static let primary = "127.0.0.2"
    /// SNI "sni.lab.test" gets the sni.lab.test certificate; no SNI or any other name gets default.lab.test.
    /// The same on `Lab.grpcTLSPort`, so the gRPC strategies differ here as HTTPS's do.
    public static let sniOnly = "127.0.0.3"
    /// A certificate for expired.lab.test that expired yesterday (valid chain otherwise).
    public static let expired = "127.0.0.4"
    /// Same certificate and endpoints as `primary`, a second IP for api.lab.test, but an HTTP/1.1-only
    /// server: its TLS port offers only "http/1.1" by ALPN, so clients that offer h2 still get HTTP/1.1.
    /// Also the lab's HTTP/1.1-only gRPC endpoint: a gRPC call to its `Lab.httpsPort` gets an
    /// HTTP/1.1 answer (no gRPC status), as from a proxy that cannot speak HTTP/2.
    public static let replica = "127.0.0.5"
    /// IPv6 loopback, behaving like `primary`.
    public static let ipv6 = "::1"
    /// Its TLS port reads the ClientHello and closes the connection (clients see a failed handshake); its
    /// plain HTTP port serves like every other address.
    public static let handshakeCloser = "127.0.0.6"
    /// Same certificate and endpoints as `primary`, listed by no name in `LabDNS`: the address the
    /// lying resolver (`LabResolver.lying`) slips in, which serves api.lab.test so well that only a
    /// DNS check tells.
    public static let impostor = "127.0.0.7"
    /// api.lab.test with a valid certificate under a second key: a stale CDN edge that only a pin
    /// set catches (`Lab.leafPEM(.stale)`).
    public static let staleEdge = "127.0.0.11"
    /// api.lab.test over TLS 1.2 only with AES128-GCM-SHA256 (an RSA leaf, no forward secrecy): a
    /// server an iOS app with ATS refuses.
    public static let noForwardSecrecy = "127.0.0.12"
    /// api.lab.test over TLS 1.2 only with ECDHE-ECDSA-AES128-GCM-SHA256: what ATS accepts.
    public static let tls12 = "127.0.0.13"
    /// A certificate with no name, only this IP address (SAN IP 127.0.0.14): an edge a plan (or
    /// an app) addresses by its IP, whose rules and pins are written for the IP itself.
    public static let ipOnly = "127.0.0.14"
    /// Same certificate and endpoints as `primary`, and a TCP listener on `Lab.rankPort` that
    /// completes a handshake at once: the edge an SDK's ranking connects find fastest.
    public static let fastRankEdge = "127.0.0.15"
    /// Same certificate and endpoints as `primary`, but a handshake on `Lab.rankPort` takes about
    /// 1 s: the port drops a connect's first SYN and takes the client kernel's resend (its initial
    /// retransmission timeout, 1 s), so a ranking connect succeeds, slowly. One that starts within
    /// 250 ms before another's resend gets in at once (see `RankListeners`).
    public static let slowRankEdge = "127.0.0.16"
    /// Every lab address with HTTP and HTTPS, in the order above.
    public static let all: [String] = [
        primary, sniOnly, expired, replica, ipv6, handshakeCloser, impostor, staleEdge, noForwardSecrecy, tls12, ipOnly,
        fastRankEdge, slowRankEdge,
    ]

    /// Nothing listens here on any port (HTTP, HTTPS, `Lab.rankPort`): every connect is refused
    /// at once, the ranking's failed edge. Not in `all`.
    public static let deadRankEdge = "127.0.0.17"

    /// The most `benchEdge` addresses a lab serves.
    public static let maxBenchEdges = 250

    /// The `number`th (from 1) of the edges a lab started with `benchEdges` serves: 127.0.1.N,
    /// each like `primary` (same certificate, h2 and http/1.1), for benches that need many
    /// addresses.
    public static func benchEdge(_ number: Int) -> String { "127.0.1.\(number)" }

    /// The lying DNS server's address (UDP and TCP, `Lab.dnsPort`; no HTTP).
    public static let lyingResolver = "127.0.0.8"
    /// A DNS server's address that reads every query and never answers (UDP and TCP, `Lab.dnsPort`).
    public static let silentResolver = "127.0.0.10"
}
