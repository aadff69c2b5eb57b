import RunnerPlan
import RunnerResults

/// One result to produce: a scenario under one concrete strategy, pinned to one IP (or not).
struct PlannedResult: Sendable {
    var scenario: Scenario
    var strategy: StrategyKind
    var ip: IPAddress?
    var resolution: Resolution?
    /// Set when the result cannot run at all (the host did not resolve): it is reported as this error.
    var resolveError: TransferError?
}

/// Expands a scenario into its results: once per strategy, and per IP under `ips: all`.
enum ResultExpansion {
    static func expand(
        _ scenario: Scenario, strategyOverride: StrategyKind?,
        resolve: (_ host: String, _ map: String) -> Result<Resolution, TransferError>
    ) -> [PlannedResult] {
        let requested = strategyOverride.map { [$0] } ?? scenario.strategies
        var strategies: [StrategyKind] = []
        for strategy in requested {
            let concrete = StrategyRules.concrete(strategy, for: scenario.request.url.scheme)
            if !strategies.contains(concrete) { strategies.append(concrete) }
        }
        var planned: [PlannedResult] = []
        for strategy in strategies {
            guard StrategyRules.pins(strategy) else {
                planned.append(PlannedResult(scenario: scenario, strategy: strategy))
                continue
            }
            let host = scenario.request.url.host
            switch resolve(host, scenario.domainMap) {
            case .failure(let error):
                planned.append(PlannedResult(scenario: scenario, strategy: strategy, resolveError: error))
            case .success(let resolution):
                let candidates = resolution.ordered(for: scenario.ipVersion)
                guard let first = candidates.first else {
                    let family = scenario.ipVersion == .v6 ? "IPv6" : "IPv4"
                    let error = TransferError(
                        kind: .resolve,
                        message: "\(resolution.source) has no \(family) address for '\(host)' (it has \(resolution.addresses.map(\.text).joined(separator: ", ")))")
                    planned.append(PlannedResult(scenario: scenario, strategy: strategy, resolution: resolution, resolveError: error))
                    continue
                }
                for ip in scenario.ips == .all ? candidates : [first] {
                    planned.append(PlannedResult(scenario: scenario, strategy: strategy, ip: ip, resolution: resolution))
                }
            }
        }
        return planned
    }
}

extension PlannedResult {
    init(scenario: Scenario, strategy: StrategyKind) {
        self.init(scenario: scenario, strategy: strategy, ip: nil, resolution: nil, resolveError: nil)
    }

    init(scenario: Scenario, strategy: StrategyKind, resolveError: TransferError) {
        self.init(scenario: scenario, strategy: strategy, ip: nil, resolution: nil, resolveError: resolveError)
    }
}
