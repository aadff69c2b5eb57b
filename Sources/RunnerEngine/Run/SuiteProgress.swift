import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// One plan's run as a value: which scenarios start on their own, what each expands into once
/// its host is looked up, which flow steps a finished result starts (on its lane, or skipped
/// when it did not pass), what is counted, and what never ran. Events in, actions out, no I/O:
/// `SuiteRun` performs the actions (the lookups, the results' jobs, the sink, the scheduler's
/// slots), and the tests drive it with made-up answers and results.
struct SuiteProgress {
    typealias Answer = Result<Resolution, TransferError>

    /// What a lookup is for, handed back with its answer.
    enum Purpose {
        /// Scenario `index` starting on its own.
        case scenario(Int)
        /// Flow step `index`, starting on `lane` at `base` (its results fan out under it).
        case step(Int, base: ResultPosition, lane: FlowLane)
    }

    /// What the driver does, in order.
    enum Action {
        /// Look `host` up for `scenario`: through its domain map, its resolver, both or neither
        /// (neither: answer at once), then call `lookedUp(for:)`.
        case lookUp(host: String, scenario: Scenario, map: Bool, resolver: Bool, for: Purpose)
        /// Run the planned result of `scenario` at `position` (`plannedResult(scenario:at:)`),
        /// with its retries, then call `finished`. Actions stay small: a result is not carried.
        case run(scenario: Int, at: ResultPosition)
        /// Hand this result, counted, to the sink (a skipped flow step; a result that ran is
        /// handed by the driver as `finished` returns).
        indirect case hand(ScenarioResult, at: ResultPosition)
        /// Tell the sink how the run's size changed.
        case planned(PlannedChange)
        /// The scheduler's slot held for a starting scenario or step becomes this many results.
        case expanded(into: Int)
        /// A flow step starts: hold a slot until it expands.
        case hold
    }

    let scenarios: [Scenario]
    /// Each selected scenario's place in the whole plan (`ResultPosition.scenario`); nil when
    /// every scenario is selected and the two numberings are the same.
    private let placesInPlan: [Int]?
    /// Who runs after whom (`after:`), by index in `scenarios`.
    private let flows: FlowGraph
    /// Scenarios taken only because a selected one runs after them.
    private let predecessorsOnly: Set<Int>
    /// The plan's place on the command line (`ResultPosition.suite`).
    private let suite: Int
    private let strategyOverride: StrategyKind?
    /// The plan's domain maps, for `expect.edges` bounds that name a static map.
    private let domainMaps: [DomainMapSpec]
    /// Per scenario: its planned results once expanded, and whether each one has finished.
    private(set) var planned: [[PlannedResult]?]
    private(set) var finished: [[Bool]]
    /// Flow steps started and not finished, by position: what an interrupted run reports.
    private var stepsUnderWay: [ResultPosition: PlannedResult] = [:]
    private(set) var counts = OutcomeCounts()

    init(plan: Plan, suite: Int, options: RunOptions) {
        self.suite = suite
        domainMaps = plan.domainMaps
        strategyOverride = options.strategyOverride
        // Shared with the plan when every scenario runs (a filter copies each one).
        if options.selectsAll {
            scenarios = plan.scenarios
            placesInPlan = nil
            predecessorsOnly = []
        } else {
            let selection = options.selection(of: plan)
            scenarios = selection.indices.map { plan.scenarios[$0] }
            placesInPlan = selection.indices
            var only = Set<Int>()
            for (position, place) in selection.indices.enumerated() where selection.predecessorsOnly.contains(place) {
                only.insert(position)
            }
            predecessorsOnly = only
        }
        flows = FlowGraph(scenarios)
        planned = Array(repeating: nil, count: scenarios.count)
        finished = Array(repeating: [], count: scenarios.count)
    }

    /// The scenarios that start on their own (flow steps start on their predecessors' lanes,
    /// and are counted as those expand).
    var scenariosStartedByTheScheduler: Int { flows.isStep.lazy.filter { !$0 }.count }

    // MARK: Events

    /// The scheduler starts scenario `index`: its host is looked up as its strategies need; a
    /// flow step gives its slot back (it runs when a result it runs after finishes).
    func start(scenario index: Int) -> [Action] {
        guard !flows.isStep[index] else { return [.expanded(into: 0)] }
        let scenario = scenarios[index]
        return [.lookUp(
            host: scenario.request.url.host, scenario: scenario,
            map: ResultExpansion.needsResolution(scenario, override: strategyOverride),
            resolver: ResultExpansion.asksResolver(scenario, override: strategyOverride), for: .scenario(index))]
    }

    /// The answers of a lookup: the scenario or step expands into its results, which run.
    mutating func lookedUp(for purpose: Purpose, map: Answer?, resolver: Answer?) -> [Action] {
        switch purpose {
        case .scenario(let index):
            let expansion = ResultExpansion.expand(
                scenarios[index], strategyOverride: strategyOverride, resolution: map, resolverAnswer: resolver,
                maps: domainMaps)
            planned[index] = expansion
            finished[index] = Array(repeating: false, count: expansion.count)
            // Made once at its size (a literal then appended to is made twice).
            var actions: [Action] = []
            actions.reserveCapacity(2 + expansion.count)
            actions.append(.expanded(into: expansion.count))
            actions.append(.planned(.expanded(results: expansion.count)))
            for slot in expansion.indices {
                actions.append(.run(scenario: index, at: position(scenario: index, slot: slot)))
            }
            return actions
        case .step(let index, let base, let lane):
            let results = FlowSteps.expand(scenarios[index], on: lane, resolution: map ?? resolver)
            var actions: [Action] = [.expanded(into: results.count), .planned(.steps(results: results.count))]
            for (fan, plannedResult) in results.enumerated() {
                let at = ResultPosition(suite: base.suite, scenario: base.scenario, slot: base.slot, lane: base.lane + [fan])
                stepsUnderWay[at] = plannedResult
                actions.append(.run(scenario: index, at: at))
            }
            return actions
        }
    }

    /// Result `result` of scenario `index` finished at `position`: it is counted (and marked
    /// when its scenario was taken only for a step) for the driver to hand over first; then the
    /// flow steps after it start — on `lane` when it passed, skipped otherwise. The lane is made
    /// only for a scenario that has steps after it.
    mutating func finished(
        _ result: inout ScenarioResult, scenario index: Int, at position: ResultPosition, lane: @autoclosure () -> FlowLane?
    ) -> [Action] {
        if position.lane.isEmpty {
            finished[index][position.slot] = true
        } else {
            stepsUnderWay[position] = nil
        }
        count(&result, scenario: index)
        guard !flows.dependents[index].isEmpty else { return [] }
        return startSteps(after: result, of: index, at: position, lane: lane())
    }

    /// The planned result a `run` action names.
    func plannedResult(scenario index: Int, at position: ResultPosition) -> PlannedResult? {
        guard position.lane.isEmpty else { return stepsUnderWay[position] }
        return planned[index].flatMap { $0.indices.contains(position.slot) ? $0[position.slot] : nil }
    }

    /// Once the run has ended: each planned result that never finished (the run was
    /// interrupted), skipped, in plan order, then the flow steps under way; counted.
    mutating func notRun() -> [(result: ScenarioResult, position: ResultPosition)] {
        var results: [(result: ScenarioResult, position: ResultPosition)] = []
        for scenario in scenarios.indices where !flows.isStep[scenario] {
            let expansion = planned[scenario]
                ?? ResultExpansion.expand(scenarios[scenario], strategyOverride: strategyOverride, resolution: nil)
            for slot in expansion.indices where !(finished[scenario].indices.contains(slot) && finished[scenario][slot]) {
                results.append((Self.notRun(expansion[slot]), position(scenario: scenario, slot: slot)))
            }
        }
        for (position, step) in stepsUnderWay.sorted(by: { $0.key < $1.key }) {
            var result = Self.notRun(step)
            result.after = step.lane?.steps ?? []
            results.append((result, position))
        }
        stepsUnderWay = [:]
        for (result, _) in results { counts = counts + result.outcome.counts }
        return results
    }

    /// Hands over the bookkeeping, leaving this value without it (after `notRun`): freeing it
    /// piece by piece costs a large run tens of milliseconds, which the caller may skip.
    mutating func retire() -> (planned: [[PlannedResult]?], finished: [[Bool]]) {
        defer {
            planned = []
            finished = []
        }
        return (planned, finished)
    }

    // MARK: Steps

    /// Counts a result (a predecessor taken only for a selected step says so).
    private mutating func count(_ result: inout ScenarioResult, scenario index: Int) {
        if predecessorsOnly.contains(index) { result.predecessorOnly = true }
        counts = counts + result.outcome.counts
    }

    /// The flow steps after `result` (scenario `index`, at `position`): on its lane when it
    /// passed (`lane`), else each skipped, naming it, and so on down the flow.
    private mutating func startSteps(
        after result: ScenarioResult, of index: Int, at position: ResultPosition, lane: FlowLane?
    ) -> [Action] {
        var actions: [Action] = []
        for (stepIndex, reference) in flows.dependents[index] {
            let step = scenarios[stepIndex]
            let base = self.position(scenario: stepIndex, slot: reference, lane: [position.slot] + position.lane)
            guard let lane else {
                var skipped = FlowSteps.skipped(step, after: result, predecessorHost: scenarios[index].request.url.host)
                let at = ResultPosition(suite: base.suite, scenario: base.scenario, slot: base.slot, lane: base.lane + [0])
                count(&skipped, scenario: stepIndex)
                actions.append(.planned(.steps(results: 1)))
                actions.append(.hand(skipped, at: at))
                if !flows.dependents[stepIndex].isEmpty {
                    actions += startSteps(after: skipped, of: stepIndex, at: at, lane: nil)
                }
                continue
            }
            let source = FlowSteps.lookupSource(of: step, on: lane)
            actions.append(.hold)
            actions.append(.lookUp(
                host: step.request.url.host, scenario: step, map: source == .domainMap, resolver: source == .resolver,
                for: .step(stepIndex, base: base, lane: lane)))
        }
        return actions
    }

    /// Where the result in `slot` (and `lane`) of the selected scenario `scenario` sits in the run.
    private func position(scenario: Int, slot: Int, lane: [Int] = []) -> ResultPosition {
        ResultPosition(suite: suite, scenario: placesInPlan?[scenario] ?? scenario, slot: slot, lane: lane)
    }

    private static func notRun(_ planned: PlannedResult) -> ScenarioResult {
        ScenarioResult(
            scenario: planned.scenario.name, strategy: planned.strategy, ip: planned.ip?.text,
            tags: planned.scenario.tags, outcome: .skipped(reason: "interrupted"),
            evidence: Evidence(strategy: planned.strategy, ipSource: "", insecure: planned.scenario.settings.insecure),
            duration: .zero)
    }
}
