import RunnerPlan
import RunnerResults

/// A domain map's answer for one host.
struct Resolution: Sendable, Equatable {
    var addresses: [IPAddress]
    /// Where they came from, for evidence and report properties, e.g. `static map 'builtin'`.
    var source: String
    /// Seconds the lookup took (0 for a built-in list).
    var lookupTime: Double
    /// Degradations worth reporting even when the request passes (a fallback used, …).
    var notes: [String] = []

    /// The addresses a scenario will use, in order: IPv4 first under `any`, as the mobile SDKs do.
    func ordered(for preference: IPVersionPreference) -> [IPAddress] {
        switch preference {
        case .v4: addresses.filter { $0.family == .v4 }
        case .v6: addresses.filter { $0.family == .v6 }
        case .any: addresses.filter { $0.family == .v4 } + addresses.filter { $0.family == .v6 }
        }
    }
}

/// Turns hosts into IPs through a plan's domain maps, each host looked up once per map per run.
///
/// Static lists answer at once; the implicit `system` map asks the machine's resolver.
/// HTTPDNS maps plug in here (they answer through the transfer engine, asynchronously).
final class DomainResolver {
    private let plan: Plan
    private var cache: [CacheKey: Result<Resolution, TransferError>] = [:]

    private struct CacheKey: Hashable {
        var map: String
        var host: String
    }

    init(plan: Plan) {
        self.plan = plan
    }

    /// The answer of map `mapName` for `host`, or a `resolve` error saying what was missing.
    func resolve(host: String, map mapName: String) -> Result<Resolution, TransferError> {
        let key = CacheKey(map: mapName, host: host)
        if let cached = cache[key] { return cached }
        let answer = lookUp(host: host, map: mapName)
        cache[key] = answer
        return answer
    }

    /// Every answer given so far, for the suite's properties (map, host, answer), in a stable order.
    var answers: [(map: String, host: String, answer: Result<Resolution, TransferError>)] {
        cache.map { (map: $0.key.map, host: $0.key.host, answer: $0.value) }
            .sorted { ($0.map, $0.host) < ($1.map, $1.host) }
    }

    private func lookUp(host: String, map mapName: String) -> Result<Resolution, TransferError> {
        if let literal = IPAddress(host) {
            return .success(Resolution(addresses: [literal], source: "IP literal in the URL", lookupTime: 0))
        }
        if mapName == systemDomainMapName {
            return SystemResolver.resolve(host: host)
        }
        guard let map = plan.domainMap(named: mapName) else {
            return .failure(TransferError(kind: .resolve, message: "no domain map named '\(mapName)'"))
        }
        switch map.source {
        case .staticList(let entries):
            guard let entry = entries.first(where: { $0.host == host }) else {
                return .failure(TransferError(
                    kind: .resolve, message: "host '\(host)' is not in static map '\(mapName)'",
                    diagnosis: "add it to domains.\(mapName).static or use another map"))
            }
            return .success(Resolution(addresses: entry.addresses, source: "static map '\(mapName)'", lookupTime: 0))
        case .httpdns(let service):
            return .failure(TransferError(
                kind: .resolve,
                message: "HTTPDNS map '\(mapName)' (\(service.format.rawValue)) is not supported by this version yet"))
        }
    }
}
