import RunnerPlan
import RunnerResults
import RunnerState
import RunnerVocabulary

/// The runner's version, reported by `--version` and in every report.
public enum RunnerVersion {
    public static let current = "0.1.0"
}

/// How to run: the command line's choices that are not part of a plan.
public struct RunOptions: Sendable {
    /// Transfers in flight at once.
    public var jobs: Int = 8
    /// Only scenarios with any of these tags (empty: all).
    public var tags: [String] = []
    /// Only scenarios whose name contains this text.
    public var filter: String? = nil
    /// Ask maps that ask as client populations as these only (`--client`); nil: as all.
    public var onlyClients: Set<String>? = nil
    /// Only the scenarios of this part of the run (`--shard K/N`).
    public var shard: Shard? = nil
    /// Run every scenario with this strategy instead of its own.
    public var strategyOverride: StrategyKind? = nil
    /// Retries for every scenario instead of the plan's `retries` (`--retries`).
    public var retriesOverride: Int? = nil
    /// HTTPDNS answers kept across runs by their TTL (`runner serve`); nil: each run asks afresh.
    public var resolutionMemory: ResolutionMemory? = nil
    /// What the HTTPDNS services returned before (`--state FILE`, `serve`'s memory), for maps
    /// with `retain:`; nil: no memory, only current answers are checked.
    public var addressMemory: AddressMemory? = nil
    /// The run's shared redactor: each `secret: true` capture is added to it before the result
    /// that captured it reaches a sink.
    public var redactor: Redactor? = nil
    /// Whether every response body's SHA-256 is computed for the evidence. The command turns it
    /// off when no output it writes shows evidence (no --junit, --json, --html, --verbose): a
    /// small response's digest costs more than the rest of its handling. A scenario that
    /// expects a digest (`body: {sha256: …}`) has it computed whatever this says.
    public var digestsBodies = true
    /// `--strict`: what an app's trust rules warn of (`app:`) fails the result as `app-policy`.
    public var strictAppPolicy = false
    /// What the run reads every time from (the machine's; tests move their own by hand).
    public var clock: RunClock = .system

    public init() {}

    /// How many times a result of `scenario` may be re-run after failing or erroring.
    public func retries(for scenario: Scenario) -> Int {
        retriesOverride ?? scenario.settings.retries
    }

    /// Whether every scenario is selected (no `--tag`, `--filter` or `--shard`).
    public var selectsAll: Bool { tags.isEmpty && filter == nil && shard == nil && onlyClients == nil }

    /// Whether `scenario` is selected by `--tag` and `--filter` (whatever its shard).
    public func matchesTagsAndFilter(_ scenario: Scenario) -> Bool {
        if !tags.isEmpty, !scenario.tags.contains(where: tags.contains) { return false }
        if let filter, !scenario.name.contains(filter) { return false }
        return true
    }

    /// Whether `scenario` of `plan` is selected by `--tag`, `--filter` and `--client` (whatever
    /// its shard): `--client` drops a scenario whose map asks as none of those clients, and
    /// keeps one whose map asks as this machine.
    public func matches(_ scenario: Scenario, of plan: Plan) -> Bool {
        guard matchesTagsAndFilter(scenario) else { return false }
        guard onlyClients != nil else { return true }
        let asked = plan.clients(askedBy: scenario.domainMap)
        return asked.isEmpty || !clients(askedBy: scenario.domainMap, in: plan).isEmpty
    }

    /// The populations map `map` of `plan` is asked as in this run: the map's, narrowed by `--client`.
    public func clients(askedBy map: String, in plan: Plan) -> [ClientPopulation] {
        let clients = plan.clients(askedBy: map)
        guard let onlyClients else { return clients }
        return clients.filter { onlyClients.contains($0.name) }
    }

    /// Every scenario that `--strategy` cannot run (its URL's scheme does not fit), as messages
    /// for the command line's error output; empty when there is no override or all fit.
    public func strategyConflicts(in plans: [Plan]) -> [String] {
        guard let strategyOverride else { return [] }
        return plans.flatMap { plan in
            selection(of: plan).indices.map { plan.scenarios[$0] }.compactMap { scenario in
                StrategyRules.incompatibility(strategyOverride, with: scenario.request.url.scheme).map {
                    "--strategy \(strategyOverride.rawValue): scenario '\(scenario.name)' (\(scenario.location)): \($0)"
                }
            }
        }
    }
}
