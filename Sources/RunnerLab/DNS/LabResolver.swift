/// The lab's DNS servers, for resolver checks (`resolver:` in a plan): each listens on UDP and
/// TCP at its own loopback address, all on one port (`Lab.dnsPort`).
///
/// | resolver | address | answers |
/// |---|---|---|
/// | `honest` | `LabAddress.primary` | the `LabDNS` table, as `/dns-query` does |
/// | `lying` | `LabAddress.lyingResolver` | the same, except `LabResolver.liedAbout`: the true `LabAddress.primary` and `LabAddress.impostor`, which serves the host with a valid certificate, so only a DNS check catches it |
/// | `silent` | `LabAddress.silentResolver` | nothing: it reads every query and never answers |
///
/// Names that test a client's edges, on the honest and lying resolvers: `truncated.lab.test`
/// answers TC without records over UDP and `LabAddress.primary` over TCP; `mismatch.lab.test`
/// first sends a reply with another ID (to `LabResolver.mismatchDecoy`), then the right one
/// (`LabAddress.primary`); `loop.lab.test` answers a record whose owner name is a compression
/// pointer to itself; `servfail.lab.test` and `refused.lab.test` answer those RCODEs; any name
/// under `bench.lab.test` answers `LabAddress.primary` (a bench asks a thousand different names,
/// so that no answer is reused).
public enum LabResolver: String, CaseIterable, Sendable {
    case honest
    case lying
    case silent

    /// Where it listens (UDP and TCP, port `Lab.dnsPort`).
    public var address: String {
        switch self {
        case .honest: LabAddress.primary
        case .lying: LabAddress.lyingResolver
        case .silent: LabAddress.silentResolver
        }
    }

    /// The host the lying resolver lies about.
    public static let liedAbout = "api.lab.test"
    /// What the lying resolver answers for `liedAbout` (A): one true address, one foreign.
    public static let lie = [LabAddress.primary, LabAddress.impostor]
    /// The address in the reply with the wrong ID to `mismatch.lab.test`, which a client must drop.
    public static let mismatchDecoy = "127.0.0.99"
    /// Every name under this one has an A record, `LabAddress.primary`.
    public static let benchZone = ".bench.lab.test"
    /// The TTL of the answers only the resolvers give (the lie, TCP's answer to `truncated`, …).
    public static let ttl = 30
}
