import RunnerPlan
import RunnerResults
import RunnerVocabulary

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
    /// For a map asked as user populations (`clients:`): what it answered each one, in the
    /// plan's order; `addresses` is then their union. Empty for a map asked as this machine.
    var byClient: [ClientResolution] = []
    /// A map with `retain:`: the addresses its service returned within the window and no
    /// longer returns, last returned first (`--state`, or `serve`'s memory); checked as retained.
    var retained: [RetainedAddress] = []
    /// On a map with `sdk:`: what the app's SDK makes of `addresses` (nil: the map names no SDK,
    /// or this is several populations' answers together, each with its own in `byClient`).
    var pick: AnswerPick? = nil

    /// The addresses a scenario will use, in order: IPv4 first under `any`, as the mobile SDKs
    /// do; each family in the order the SDK keeps it when the map names one (ranked first).
    func ordered(for preference: IPVersionPreference) -> [IPAddress] {
        let addresses = pick?.choice.order ?? addresses
        // An answer already in that order (the usual one: one family) is handed on shared, not
        // filtered into new arrays for every result.
        return switch preference {
        case .v4: addresses.allSatisfy { $0.family == .v4 } ? addresses : addresses.filter { $0.family == .v4 }
        case .v6: addresses.allSatisfy { $0.family == .v6 } ? addresses : addresses.filter { $0.family == .v6 }
        case .any:
            if let firstV6 = addresses.firstIndex(where: { $0.family == .v6 }),
               addresses[firstV6...].contains(where: { $0.family == .v4 }) {
                addresses.filter { $0.family == .v4 } + addresses.filter { $0.family == .v6 }
            } else {
                addresses
            }
        }
    }
}

/// An address a map's service no longer returns but returned within its `retain:` window.
struct RetainedAddress: Sendable, Equatable {
    var address: IPAddress
    var evidence: RetainedEvidence
}

/// What a map asked as user populations answered one of them.
struct ClientResolution: Sendable, Equatable {
    var client: ClientPopulation
    var answer: Result<Resolution, TransferError>
}

extension Resolution {
    /// A map's answer for several populations together: every address any of them was given
    /// (in the order of the clients, then of each answer), taking as long as the slowest
    /// lookup, lasting as long as the shortest TTL.
    init(clients answers: [ClientResolution]) {
        let resolutions = answers.compactMap { try? $0.answer.get() }
        var addresses: [IPAddress] = []
        var seen: Set<IPAddress> = []
        for resolution in resolutions {
            for address in resolution.addresses where seen.insert(address).inserted { addresses.append(address) }
        }
        let named = answers.map(\.client.name).joined(separator: ", ")
        self.init(
            addresses: addresses, source: "\(resolutions.first?.source ?? "no answer") as \(named)",
            lookupTime: resolutions.map(\.lookupTime).max() ?? .zero, ttl: resolutions.compactMap(\.ttl).min())
        byClient = answers
    }
}
