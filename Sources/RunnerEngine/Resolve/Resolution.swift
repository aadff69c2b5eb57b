import RunnerPlan
import RunnerResults

/// A domain map's answer for one host.
struct Resolution: Sendable, Equatable {
    var addresses: [IPAddress]
    /// Where they came from, for evidence and report properties, e.g. `static map 'builtin'`.
    var source: String
    /// How long the lookup took (zero for a built-in list or a cached answer).
    var lookupTime: Duration
    /// The answer's TTL in seconds, when the source gave one.
    var ttl: Int? = nil
    /// Degradations worth reporting even when the request passes (a fallback used, …).
    var notes: [String] = []
    /// The map whose HTTPDNS service failed, when this answer came from its fallback.
    var fallbackFrom: String? = nil
    /// The questions, when the addresses came from a resolver the runner asked itself (the
    /// machine's or a DNS server: `resolver:`), and under `expect.dns` the check's verdict.
    var dns: DNSLookupEvidence? = nil

    /// The addresses a scenario will use, in order: IPv4 first under `any`, as the mobile SDKs do.
    func ordered(for preference: IPVersionPreference) -> [IPAddress] {
        switch preference {
        case .v4: addresses.filter { $0.family == .v4 }
        case .v6: addresses.filter { $0.family == .v6 }
        case .any: addresses.filter { $0.family == .v4 } + addresses.filter { $0.family == .v6 }
        }
    }
}
