import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// One result to produce: a scenario under one concrete strategy, pinned to one IP (or not).
struct PlannedResult: Sendable {
    var scenario: Scenario
    var strategy: StrategyKind
    var ip: IPAddress?
    var resolution: Resolution?
    /// Set when the result cannot run at all (the host did not resolve): it is reported as this error.
    var resolveError: TransferError?
    /// A flow step's lane: what the passing result it runs after left it (`after:`).
    var lane: FlowLane? = nil
}

/// Expands a scenario into its results: once per strategy, and per IP under `ips: all`.
enum ResultExpansion {
    /// The concrete strategies a scenario runs, in order, each once (`auto` decided by scheme).
    static func strategies(of scenario: Scenario, override: StrategyKind?) -> [StrategyKind] {
        var strategies: [StrategyKind] = []
        for strategy in override.map({ [$0] }) ?? scenario.strategies {
            let concrete = strategy.concrete(for: scenario.request.url.scheme)
            if !strategies.contains(concrete) { strategies.append(concrete) }
        }
        return strategies
    }

    /// Whether any of the scenario's strategies needs the host's IPs (all but `system`).
    static func needsResolution(_ scenario: Scenario, override: StrategyKind?) -> Bool {
        strategies(of: scenario, override: override).contains(where: StrategyRules.pins)
    }

    /// The results of `scenario`, given its domain map's answer (nil when nothing pins).
    static func expand(
        _ scenario: Scenario, strategyOverride: StrategyKind?, resolution: Result<Resolution, TransferError>?
    ) -> [PlannedResult] {
        var planned: [PlannedResult] = []
        for strategy in strategies(of: scenario, override: strategyOverride) {
            guard StrategyRules.pins(strategy), let resolution else {
                planned.append(PlannedResult(scenario: scenario, strategy: strategy))
                continue
            }
            let host = scenario.request.url.host
            switch resolution {
            case .failure(let error):
                planned.append(PlannedResult(scenario: scenario, strategy: strategy, resolveError: error))
            case .success(let resolution):
                let candidates = resolution.ordered(for: scenario.ipVersion)
                guard let first = candidates.first else {
                    let family = scenario.ipVersion == .v6 ? "IPv6" : "IPv4"
                    let known = resolution.addresses.isEmpty ? "none" : resolution.addresses.map(\.text).joined(separator: ", ")
                    let error = TransferError(
                        kind: .resolve,
                        message: "\(resolution.source) has no \(family) address for '\(host)' (it has \(known))")
                    planned.append(PlannedResult(
                        scenario: scenario, strategy: strategy, ip: nil, resolution: resolution, resolveError: error))
                    continue
                }
                for ip in scenario.ips == .all ? candidates : [first] {
                    planned.append(PlannedResult(
                        scenario: scenario, strategy: strategy, ip: ip, resolution: resolution, resolveError: nil))
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
