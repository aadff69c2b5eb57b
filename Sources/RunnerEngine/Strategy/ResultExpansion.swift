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

/// Where a result's addresses come from (`ResultExpansion.addressSource`).
enum AddressSource: Sendable, Equatable {
    case domainMap
    case resolver
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

    /// Where a result under `strategy` takes its addresses from: the scenario's domain map (every
    /// strategy that pins), its resolver (`system` when the plan names a DNS server or checks
    /// the answer with `expect.dns`: the runner asks and connects to what it answered), or
    /// nowhere (`system` as libcurl resolves it).
    static func addressSource(of strategy: StrategyKind, in scenario: Scenario) -> AddressSource? {
        if StrategyRules.pins(strategy) { return .domainMap }
        return scenario.settings.resolver != .system || scenario.expect.dns != nil ? .resolver : nil
    }

    /// Whether any of the scenario's strategies needs the host's IPs from its domain map.
    static func needsResolution(_ scenario: Scenario, override: StrategyKind?) -> Bool {
        strategies(of: scenario, override: override).contains(where: StrategyRules.pins)
    }

    /// Whether any of the scenario's strategies asks its resolver itself.
    static func asksResolver(_ scenario: Scenario, override: StrategyKind?) -> Bool {
        strategies(of: scenario, override: override).contains { addressSource(of: $0, in: scenario) == .resolver }
    }

    /// The results of `scenario`, given its domain map's answer (nil when nothing pins) and its
    /// resolver's (nil when no strategy asks it).
    static func expand(
        _ scenario: Scenario, strategyOverride: StrategyKind?, resolution mapAnswer: Result<Resolution, TransferError>?,
        resolverAnswer: Result<Resolution, TransferError>? = nil
    ) -> [PlannedResult] {
        var planned: [PlannedResult] = []
        for strategy in strategies(of: scenario, override: strategyOverride) {
            let answer: Result<Resolution, TransferError>? = switch addressSource(of: strategy, in: scenario) {
            case .domainMap: mapAnswer
            case .resolver: resolverAnswer
            case nil: nil
            }
            guard let resolution = answer else {
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
