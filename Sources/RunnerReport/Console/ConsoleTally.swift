import RunnerResults
import RunnerVocabulary

/// What the console's end-of-run summary needs from the results, counted as they finish so
/// that no result is kept: the flags, each scenario's size, and the results that did not pass.
struct ConsoleTally {
    /// One result that did not pass, as the summary may show it alone or in its scenario's group.
    struct NotPassing {
        var position: ResultPosition
        /// The result's own summary line (`  FAIL  plan: name [strategy ip] — why`).
        var line: String
        var plan: String
        var scenario: String
        var failed: Bool
        var strategy: StrategyKind
        var ip: String?
        var after: [ResultStep]
        /// One word or two for a group line: the error kind (`tls`, `timeout`) or the first
        /// unmet expectation's subject (`status`, `header Content-Type`).
        var reason: String
    }

    /// A scenario's results: how many, how many passed, which strategies they used.
    struct ScenarioSize {
        var results: Int32 = 0
        var passed: Int32 = 0
        /// One bit per `StrategyKind` (`bit(of:)`).
        var strategies: UInt8 = 0
        var hasLanes = false

        /// The one strategy every result used, if they share one.
        var sharedStrategy: StrategyKind? {
            guard strategies.nonzeroBitCount == 1 else { return nil }
            return StrategyKind.allCases.first { Self.bit(of: $0) == strategies }
        }

        /// A strategy's bit (a switch: `allCases` would make an array per result).
        static func bit(of strategy: StrategyKind) -> UInt8 {
            switch strategy {
            case .headerOnly: 1
            case .trustOverride: 2
            case .sniResolve: 4
            case .system: 8
            case .auto: 16
            }
        }
    }

    var notPassing: [NotPassing] = []
    var insecure = 0
    var fallbacks = 0
    var flaky = 0
    /// Per plan, per scenario (its place in the plan): grown as results arrive.
    private var sizes: [[ScenarioSize]] = []
    /// Each scenario's populations on a map asked as clients: their edges and how they did.
    var populations = ClientEdgeTally()
    /// The addresses each population's SDK picks (`sdk:`) and how they did.
    var picks = PickTally()

    mutating func count(_ result: ScenarioResult, at position: ResultPosition, notPassing entry: NotPassing?) {
        if let entry { notPassing.append(entry) }
        if result.evidence.insecure { insecure += 1 }
        if result.evidence.resolutionFallbackFrom != nil { fallbacks += 1 }
        if result.isFlaky { flaky += 1 }
        while sizes.count <= position.suite { sizes.append([]) }
        if sizes[position.suite].count <= position.scenario {
            // Grown in place (an array made for the one new scenario cost an allocation a result).
            sizes[position.suite].append(contentsOf: repeatElement(ScenarioSize(), count: position.scenario + 1 - sizes[position.suite].count))
        }
        sizes[position.suite][position.scenario].results += 1
        if case .passed = result.outcome { sizes[position.suite][position.scenario].passed += 1 }
        sizes[position.suite][position.scenario].strategies |= ScenarioSize.bit(of: result.strategy)
        if !result.after.isEmpty { sizes[position.suite][position.scenario].hasLanes = true }
        if !result.evidence.clients.isEmpty { countPopulations(of: result, at: position, reason: entry?.reason ?? "") }
        if result.evidence.pick != nil { picks.count(result, at: position, reason: entry?.reason ?? "") }
    }

    private mutating func countPopulations(of result: ScenarioResult, at position: ResultPosition, reason: String) {
        let passed = result.outcome.isPassed
        for (index, client) in result.evidence.clients.enumerated() {
            populations.add(
                client: client.name, labels: client.labels, index: index, scenario: result.scenario, at: position,
                address: result.ip, passed: passed, reason: passed ? "" : reason,
                misses: result.schedulingMisses(of: client.name))
        }
    }

    /// The size of the scenario at `position`.
    func size(at position: ResultPosition) -> ScenarioSize {
        sizes[position.suite][position.scenario]
    }

    /// The results that did not pass, in plan order, by scenario: a scenario with one result
    /// stands alone; one that fanned out over IPs or strategies is one group.
    func groups() -> [(size: ScenarioSize, members: [NotPassing])] {
        var groups: [(size: ScenarioSize, members: [NotPassing])] = []
        for entry in notPassing.sorted(by: { $0.position < $1.position }) {
            if let last = groups.last?.members.first,
                (last.position.suite, last.position.scenario) == (entry.position.suite, entry.position.scenario)
            {
                groups[groups.count - 1].members.append(entry)
            } else {
                groups.append((size(at: entry.position), [entry]))
            }
        }
        return groups
    }
}
