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
    /// On a map asked as user populations: those whose answer held `ip` (for an errored
    /// result, those whose lookup failed), in the plan's order; empty otherwise.
    var clients: [ClientPopulation] = []
    /// Where `expect.edges` found this result's populations sent outside their bounds.
    var schedulingMisses: [Problem] = []
    /// Set for an address the map's service no longer returns but returned within `retain:`.
    var retained: RetainedEvidence? = nil
    /// On a map with `sdk:`: the populations whose apps use `ip`, and the others'.
    var pick: PickEvidence? = nil
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
        let scheme = scenario.request.url.scheme
        // Most scenarios write concrete, distinct strategies: their own list, shared, not a copy
        // (asked three times for each result).
        let written = scenario.strategies
        if override == nil, written.allSatisfy({ $0.concrete(for: scheme) == $0 }),
            written.indices.allSatisfy({ !written[..<$0].contains(written[$0]) })
        {
            return written
        }
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
    /// resolver's (nil when no strategy asks it). `maps`: the plan's, for `expect.edges`.
    static func expand(
        _ scenario: Scenario, strategyOverride: StrategyKind?, resolution mapAnswer: Result<Resolution, TransferError>?,
        resolverAnswer: Result<Resolution, TransferError>? = nil, maps: [DomainMapSpec] = []
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
            if case .success(let combined) = resolution, !combined.byClient.isEmpty {
                planned += expand(scenario, strategy: strategy, byClient: combined.byClient, maps: maps)
                continue
            }
            switch resolution {
            case .failure(let error):
                planned.append(PlannedResult(scenario: scenario, strategy: strategy, resolveError: error))
            case .success(let resolution):
                let candidates = resolution.ordered(for: scenario.ipVersion)
                guard !candidates.isEmpty else {
                    let family = scenario.ipVersion == .v6 ? "IPv6" : "IPv4"
                    let known = resolution.addresses.isEmpty ? "none" : resolution.addresses.map(\.text).joined(separator: ", ")
                    let error = TransferError(
                        kind: .resolve,
                        message: "\(resolution.source) has no \(family) address for '\(host)' (it has \(known))")
                    planned.append(PlannedResult(
                        scenario: scenario, strategy: strategy, ip: nil, resolution: resolution, resolveError: error))
                    continue
                }
                // `ips: first`: a slice of the first, not an array made for it.
                for ip in scenario.ips == .all ? candidates[...] : candidates.prefix(1) {
                    var result = PlannedResult(
                        scenario: scenario, strategy: strategy, ip: ip, resolution: resolution, resolveError: nil)
                    if resolution.pick != nil {
                        result.pick = pickEvidence(for: ip, holders: [(nil, resolution)], map: scenario.domainMap, host: host)
                    }
                    planned.append(result)
                }
                for retained in retainedAddresses(resolution.retained, of: scenario, current: resolution.addresses) {
                    var result = PlannedResult(
                        scenario: scenario, strategy: strategy, ip: retained.address, resolution: resolution, resolveError: nil)
                    result.retained = retained.evidence
                    if resolution.pick != nil {
                        result.pick = pickEvidence(
                            for: retained.address, holders: [(nil, resolution)], map: scenario.domainMap, host: host)
                    }
                    planned.append(result)
                }
            }
        }
        return planned
    }
}

extension ResultExpansion {
    /// A strategy's results on a map asked as user populations: one per distinct address
    /// across their answers (`ips: first`: each population's first), naming the populations
    /// whose answer held it; one errored result for the populations with no usable answer.
    private static func expand(
        _ scenario: Scenario, strategy: StrategyKind, byClient answers: [ClientResolution], maps: [DomainMapSpec]
    ) -> [PlannedResult] {
        let host = scenario.request.url.host
        // Whether the map names an SDK: only then does a result gather its holders' picks.
        let picks = answers.contains { if case .success(let resolution) = $0.answer { resolution.pick != nil } else { false } }
        // The results' addresses in order, each with the clients (by index) whose answer held it.
        var addresses: [IPAddress] = []
        var holders: [[Int]] = []
        var slot: [IPAddress: Int] = [:]
        var firstAddress: [IPAddress?] = Array(repeating: nil, count: answers.count)
        var unanswered: [(client: Int, message: String)] = []
        // Under `ips: first`: a client's later address that was no result yet when its answer
        // was read; another client's first may make it one afterwards.
        var held: [(address: IPAddress, client: Int)] = []
        for index in answers.indices {
            switch answers[index].answer {
            case .failure(let error):
                unanswered.append((index, error.message))
            case .success(let resolution):
                let candidates = resolution.ordered(for: scenario.ipVersion)
                guard let first = candidates.first else {
                    let family = scenario.ipVersion == .v6 ? "IPv6" : "IPv4"
                    let known = resolution.addresses.isEmpty ? "none" : resolution.addresses.map(\.text).joined(separator: ", ")
                    unanswered.append((index, "\(resolution.source) has no \(family) address for '\(host)' (it has \(known))"))
                    continue
                }
                firstAddress[index] = first
                // One look-up per address: a result of its own under `ips: all` (or for the
                // client's first), else held where another client's first made it one.
                for (rank, address) in candidates.enumerated() {
                    if let at = slot[address] {
                        holders[at].append(index)
                    } else if scenario.ips == .all || rank == 0 {
                        slot[address] = addresses.count
                        addresses.append(address)
                        holders.append([index])
                    } else {
                        held.append((address, index))
                    }
                }
            }
        }
        for (address, client) in held {
            if let at = slot[address] { holders[at].append(client) }
        }
        for at in holders.indices where holders[at].count > 1 { holders[at].sort() }
        // A miss on an address that is no result of its own (`ips: first`) fails the
        // population's first address's result.
        var misses: [[Problem]] = Array(repeating: [], count: addresses.count)
        if !scenario.expect.edges.isEmpty {
            let found = SchedulingVerdict.misses(
                scenario.expect.edges, answers: answers, host: host, ipVersion: scenario.ipVersion, maps: maps)
            for miss in found {
                let index = answers.firstIndex { $0.client.name == miss.client.name }
                let target = slot[miss.address] ?? index.flatMap { firstAddress[$0] }.flatMap { slot[$0] }
                if let target { misses[target].append(miss.problem) }
            }
        }
        var planned: [PlannedResult] = []
        planned.reserveCapacity(addresses.count + 1)
        for (at, address) in addresses.enumerated() {
            var result = PlannedResult(
                scenario: scenario, strategy: strategy, ip: address, resolution: resolution(for: holders[at], of: answers),
                resolveError: nil)
            result.clients = holders[at].map { answers[$0].client }
            result.schedulingMisses = misses[at]
            if picks {
                result.pick = pickEvidence(for: address, holders: holding(holders[at], of: answers), map: scenario.domainMap, host: host)
            }
            planned.append(result)
        }
        // Retained addresses no population holds now: a result each, naming the populations
        // that retained it (the first one's evidence).
        var retainedOrder: [IPAddress] = []
        var retainedBy: [IPAddress: (evidence: RetainedEvidence, clients: [Int])] = [:]
        for index in answers.indices {
            guard case .success(let resolution) = answers[index].answer else { continue }
            for retained in retainedAddresses(resolution.retained, of: scenario, current: resolution.addresses)
            where slot[retained.address] == nil {
                if retainedBy[retained.address] == nil { retainedOrder.append(retained.address) }
                retainedBy[retained.address, default: (retained.evidence, [])].clients.append(index)
            }
        }
        for address in retainedOrder {
            guard let (evidence, holding) = retainedBy[address] else { continue }
            var result = PlannedResult(
                scenario: scenario, strategy: strategy, ip: address, resolution: resolution(for: holding, of: answers),
                resolveError: nil)
            result.clients = holding.map { answers[$0].client }
            result.retained = evidence
            if picks {
                result.pick = pickEvidence(for: address, holders: self.holding(holding, of: answers), map: scenario.domainMap, host: host)
            }
            planned.append(result)
        }
        if !unanswered.isEmpty {
            let message = unanswered.map { "as \(answers[$0.client].client.name): \($0.message)" }.joined(separator: "; ")
            var result = PlannedResult(
                scenario: scenario, strategy: strategy, resolveError: TransferError(kind: .resolve, message: message))
            result.clients = unanswered.map { answers[$0.client].client }
            planned.append(result)
        }
        return planned
    }

    /// The populations at `holders` (indices into `answers`) with their answers, for their pick.
    private static func holding(_ holders: [Int], of answers: [ClientResolution]) -> [(name: String?, resolution: Resolution)] {
        holders.compactMap { index in
            guard case .success(let resolution) = answers[index].answer else { return nil }
            return (answers[index].client.name, resolution)
        }
    }

    /// What a result's populations (`holders`, indices into `answers`) were answered, as one:
    /// the first one's answer, taking as long as the slowest, with every one's notes saying for
    /// whom.
    private static func resolution(for holders: [Int], of answers: [ClientResolution]) -> Resolution? {
        guard let first = holders.first, case .success(var resolution) = answers[first].answer else { return nil }
        resolution.byClient = []
        // Each population's pick is the result's `pick` evidence, not this answer's.
        resolution.pick = nil
        resolution.notes = []
        for index in holders {
            guard case .success(let answer) = answers[index].answer else { continue }
            if answer.lookupTime > resolution.lookupTime { resolution.lookupTime = answer.lookupTime }
            if resolution.fallbackFrom == nil { resolution.fallbackFrom = answer.fallbackFrom }
            for note in answer.notes { resolution.notes.append("as \(answers[index].client.name): \(note)") }
        }
        return resolution
    }
}

extension ResultExpansion {
    /// The retained addresses a scenario checks: those in the families it asks (whatever
    /// `ips:`: apps hold each of them), but for one the current answer holds again.
    static func retainedAddresses(
        _ retained: [RetainedAddress], of scenario: Scenario, current: [IPAddress]
    ) -> [RetainedAddress] {
        guard !retained.isEmpty else { return [] }
        let families: Set<IPAddress.Family> = switch scenario.ipVersion {
        case .v4: [.v4]
        case .v6: [.v6]
        case .any: [.v4, .v6]
        }
        let held = Set(current)
        return retained.filter { families.contains($0.address.family) && !held.contains($0.address) }
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
