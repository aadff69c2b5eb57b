/// The loopback addresses the lab listens on, each a virtual host with its own certificate policy.
///
/// Linux routes all of 127/8 to the loopback interface, so every address is usable without setup.
/// Every address offers "h2" and "http/1.1" by ALPN on the HTTPS port, except `replica` (HTTP/1.1 only);
/// the plain HTTP port is HTTP/1.1 everywhere.
public enum LabAddress {
    /// One certificate (SANs: api.lab.test, single.lab.test, localhost, IP 127.0.0.2) whatever the SNI.
    public static let primary = "127.0.0.2"
    /// SNI "sni.lab.test" gets the sni.lab.test certificate; no SNI or any other name gets default.lab.test.
    public static let sniOnly = "127.0.0.3"
    /// A certificate for expired.lab.test that expired yesterday (valid chain otherwise).
    public static let expired = "127.0.0.4"
    /// Same certificate and endpoints as `primary`, a second IP for api.lab.test, but an HTTP/1.1-only
    /// server: its TLS port offers only "http/1.1" by ALPN, so clients that offer h2 still get HTTP/1.1.
    public static let replica = "127.0.0.5"
    /// IPv6 loopback, behaving like `primary`.
    public static let ipv6 = "::1"
    /// Its TLS port reads the ClientHello and closes the connection (clients see a failed handshake); its
    /// plain HTTP port serves like every other address.
    public static let handshakeCloser = "127.0.0.6"
    /// Every lab address, in the order above.
    public static let all: [String] = [primary, sniOnly, expired, replica, ipv6, handshakeCloser]
}
