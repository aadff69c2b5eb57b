/// The loopback addresses the lab listens on, each a virtual host with its own certificate policy.
///
/// Linux routes all of 127/8 to the loopback interface, so every address is usable without setup.
public enum LabAddress {
    /// One certificate (SANs: api.lab.test, single.lab.test, localhost, IP 127.0.0.2) whatever the SNI.
    public static let primary = "127.0.0.2"
    /// SNI "sni.lab.test" gets the sni.lab.test certificate; no SNI or any other name gets default.lab.test.
    public static let sniOnly = "127.0.0.3"
    /// A certificate for expired.lab.test that expired yesterday (valid chain otherwise).
    public static let expired = "127.0.0.4"
    /// Same certificate and behaviour as `primary`: a second IP for api.lab.test.
    public static let replica = "127.0.0.5"
    /// IPv6 loopback, behaving like `primary`.
    public static let ipv6 = "::1"
    /// Every lab address, in the order above.
    public static let all: [String] = [primary, sniOnly, expired, replica, ipv6]
}
