import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Runs validated plans: each scenario resolves its host, expands into its results, and every
/// transfer runs on one libcurl engine (`jobs` in flight across all plans); each result is judged
/// and handed to the sink as it finishes, and kept by no one here.
public final class PlanRunner {
    private let options: RunOptions
    private let sink: any ResultSink
    private let clock: MonotonicClock
    private let wallClock: WallClock
    /// Stops the run from another thread (SIGINT/SIGTERM).
    public let interrupter = RunInterrupter()
    /// The last run's bookkeeping (every planned result), kept as long as the runner: freeing
    /// it piece by piece takes a large run tens of milliseconds, and a command line tool may
    /// exit without it. The engine itself is released when a run ends, closing its connections.
    private var retired: [SuiteRun.Bookkeeping] = []

    /// - Parameter sink: takes every result as it finishes, then, when the run was interrupted,
    ///   each planned result that never finished.
    public convenience init(options: RunOptions, sink: any ResultSink) {
        self.init(options: options, sink: sink, clock: .system, wallClock: .system)
    }

    /// - Parameters:
    ///   - clock: what TTLs and each result's timeout are measured on (tests move it).
    ///   - wallClock: the time signed HTTPDNS queries are signed at (tests shift it).
    init(options: RunOptions, sink: any ResultSink, clock: MonotonicClock, wallClock: WallClock) {
        self.options = options
        self.sink = sink
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Runs `plans` to completion and returns one suite per plan (its counts, not its results).
    public func run(_ plans: [Plan]) throws(CurlError) -> RunResult {
        let engine = try TransferEngine(maxInFlight: max(1, options.jobs))
        let startedAt = Date()
        let started = DispatchTime.now()
        let suites = plans.enumerated().map {
            SuiteRun(
                plan: $1, index: $0, options: options, engine: engine, interrupter: interrupter, sink: sink, clock: clock,
                wallClock: wallClock)
        }
        let scheduler = ScenarioScheduler(
            limit: max(1, options.jobs), interrupter: interrupter, suites: suites.map { ($0, $0.scenarios.indices) })
        interrupter.attach(engine)
        defer { interrupter.detach() }
        sink.planned(.scenarios(suites.reduce(0) { $0 + $1.scenariosStartedByTheScheduler }))
        scheduler.pump()
        engine.run()
        let duration = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let run = RunResult(
            suites: suites.map { $0.finish() }, startedAt: startedAt,
            duration: duration, interruptedBy: interrupter.signal, connectionsOpened: engine.connectionsOpened,
            shard: options.shard)
        retired = suites.map { $0.retire() }
        return run
    }
}

/// Starts scenarios while fewer than `limit` results are under way, so a scenario resolves its
/// host when it really starts (a cached answer is reused only while its TTL lasts), and stops
/// starting any once the run is interrupted. Lives on the engine's thread.
final class ScenarioScheduler {
    /// Each plan's scenarios still to start, in order (a range per plan, not an entry per
    /// scenario: a large plan would make and free one per scenario).
    private var pending: [(suite: SuiteRun, scenarios: Range<Int>)]
    private var current = 0
    private var active = 0
    private let limit: Int
    private let interrupter: RunInterrupter

    fileprivate init(limit: Int, interrupter: RunInterrupter, suites: [(SuiteRun, Range<Int>)]) {
        self.limit = limit
        self.interrupter = interrupter
        self.pending = suites.map { (suite: $0.0, scenarios: $0.1) }
    }

    func pump() {
        while active < limit, interrupter.signal == nil, let (suite, index) = next() {
            // One slot held while the scenario resolves; `expanded` trades it for its results.
            active += 1
            suite.start(scenario: index, scheduler: self)
        }
    }

    private func next() -> (SuiteRun, Int)? {
        while current < pending.count {
            if let index = pending[current].scenarios.popFirst() { return (pending[current].suite, index) }
            current += 1
        }
        return nil
    }

    /// A scenario resolved into `count` results (each will call `finished` once).
    func expanded(into count: Int) {
        active += count - 1
    }

    /// A flow step starts on a lane: it holds a slot until `expanded` trades it for its results,
    /// so the lanes under way count against the limit like any result.
    func hold() {
        active += 1
    }

    func finished() {
        active -= 1
        pump()
    }
}

/// One plan's scenarios, which of their results have finished, and its resolver.
final class SuiteRun {
    let scenarios: [Scenario]
    /// Each selected scenario's place in the whole plan (`ResultPosition.scenario`); nil when
    /// every scenario is selected and the two numberings are the same.
    private let placesInPlan: [Int]?
    /// Who runs after whom (`after:`), by index in `scenarios`.
    private let flows: FlowGraph
    /// Scenarios taken only because a selected one runs after them.
    private let predecessorsOnly: Set<Int>
    /// Flow steps started and not finished, by position: what an interrupted run reports.
    private var stepsUnderWay: [ResultPosition: PlannedResult] = [:]
    private let plan: Plan
    /// The plan's place on the command line (`ResultPosition.suite`).
    private let index: Int
    private let options: RunOptions
    private let engine: TransferEngine
    private let resolver: DomainResolver
    private let interrupter: RunInterrupter
    private let sink: any ResultSink
    private let clock: MonotonicClock
    /// Per scenario: its planned results once expanded, and whether each one has finished.
    private var planned: [[PlannedResult]?]
    private var finished: [[Bool]]
    private var counts = OutcomeCounts()
    private let startedAt = Date()
    private let started = DispatchTime.now()
    private var finishedAt: DispatchTime?

    fileprivate init(
        plan: Plan, index: Int, options: RunOptions, engine: TransferEngine, interrupter: RunInterrupter,
        sink: any ResultSink, clock: MonotonicClock, wallClock: WallClock
    ) {
        self.plan = plan
        self.index = index
        self.options = options
        self.engine = engine
        self.interrupter = interrupter
        self.sink = sink
        self.clock = clock
        self.resolver = DomainResolver(
            plan: plan, engine: engine, clock: clock, wallClock: wallClock, memory: options.resolutionMemory,
            redactor: options.redactor)
        // Shared with the plan when every scenario runs (a filter copies each one).
        if options.selectsAll {
            self.scenarios = plan.scenarios
            self.placesInPlan = nil
            self.predecessorsOnly = []
        } else {
            let selection = options.selection(of: plan)
            self.scenarios = selection.indices.map { plan.scenarios[$0] }
            self.placesInPlan = selection.indices
            var only = Set<Int>()
            for (position, place) in selection.indices.enumerated() where selection.predecessorsOnly.contains(place) {
                only.insert(position)
            }
            self.predecessorsOnly = only
        }
        self.flows = FlowGraph(scenarios)
        self.planned = Array(repeating: nil, count: scenarios.count)
        self.finished = Array(repeating: [], count: scenarios.count)
    }

    /// The scenarios that start on their own (flow steps start on their predecessors' lanes,
    /// and are counted as those expand).
    var scenariosStartedByTheScheduler: Int { flows.isStep.lazy.filter { !$0 }.count }

    func start(scenario index: Int, scheduler: ScenarioScheduler) {
        // A flow step runs when a result it runs after finishes (`startSteps`).
        guard !flows.isStep[index] else {
            scheduler.expanded(into: 0)
            return
        }
        let scenario = scenarios[index]
        let needsMap = ResultExpansion.needsResolution(scenario, override: options.strategyOverride)
        let asksResolver = ResultExpansion.asksResolver(scenario, override: options.strategyOverride)
        resolveBoth(scenario.request.url.host, for: scenario, map: needsMap, resolver: asksResolver) { [self] mapAnswer, resolverAnswer in
            let expansion = ResultExpansion.expand(
                scenario, strategyOverride: options.strategyOverride, resolution: mapAnswer, resolverAnswer: resolverAnswer)
            planned[index] = expansion
            finished[index] = Array(repeating: false, count: expansion.count)
            scheduler.expanded(into: expansion.count)
            sink.planned(.expanded(results: expansion.count))
            for (slot, plannedResult) in expansion.enumerated() {
                run(plannedResult, scenario: index, at: position(scenario: index, slot: slot), scheduler: scheduler)
            }
        }
    }

    typealias Answer = Result<Resolution, TransferError>

    /// Looks `host` up through the scenario's domain map and/or its resolver, as its strategies
    /// need (at once when neither is needed).
    private func resolveBoth(
        _ host: String, for scenario: Scenario, map: Bool, resolver: Bool,
        completion: @escaping (_ map: Answer?, _ resolver: Answer?) -> Void
    ) {
        switch (map, resolver) {
        case (false, false):
            completion(nil, nil)
        case (true, false):
            resolve(host, for: scenario, from: .domainMap) { completion($0, nil) }
        case (false, true):
            resolve(host, for: scenario, from: .resolver) { completion(nil, $0) }
        case (true, true):
            // Both at once; whichever ends last hands the pair on (all on the engine's thread).
            var mapAnswer: Answer?
            var resolverAnswer: Answer?
            resolve(host, for: scenario, from: .domainMap) { answer in
                mapAnswer = answer
                if let resolverAnswer { completion(answer, resolverAnswer) }
            }
            resolve(host, for: scenario, from: .resolver) { answer in
                resolverAnswer = answer
                if let mapAnswer { completion(mapAnswer, answer) }
            }
        }
    }

    /// Looks `host` up the way `scenario` does: its domain map (or its resolver, as if through
    /// the `system` map), IP version, CA, resolver and connect timeout; under `expect.dns` an
    /// answer from a resolver is checked against the maps it names.
    private func resolve(
        _ host: String, for scenario: Scenario, from source: AddressSource, completion: @escaping (Answer) -> Void
    ) {
        let map = source == .resolver ? systemDomainMapName : scenario.domainMap
        resolver.resolve(
            host: host, map: map, ipVersion: scenario.ipVersion, caFile: scenario.settings.caFile,
            resolver: scenario.settings.resolver, systemTimeout: scenario.settings.connectTimeout
        ) { [self] answer in
            guard let within = scenario.expect.dns?.within, case .success(let resolution) = answer,
                let host = resolution.dns?.host
            else { return completion(answer) }
            check(resolution, of: host, within: within, for: scenario, completion: completion)
        }
    }

    /// `expect.dns.within`: the resolver's answer against each named map's answer for the same
    /// host (looked up as usual, cache and fallback included); a map without one is an error.
    private func check(
        _ resolution: Resolution, of host: String, within maps: [String], for scenario: Scenario,
        completion: @escaping (Answer) -> Void
    ) {
        var answers = [Answer?](repeating: nil, count: maps.count)
        var waiting = maps.count
        for (slot, map) in maps.enumerated() {
            resolver.resolve(
                host: host, map: map, ipVersion: scenario.ipVersion, caFile: scenario.settings.caFile,
                resolver: scenario.settings.resolver, systemTimeout: scenario.settings.connectTimeout
            ) { answer in
                answers[slot] = answer
                waiting -= 1
                guard waiting == 0 else { return }
                completion(DNSVerdict.check(resolution, against: maps, answers: answers.compactMap { $0 }))
            }
        }
    }

    /// Runs one result (with the retries a failure earns), counts and hands over its verdict,
    /// then starts the flow steps that run after it.
    private func run(
        _ plannedResult: PlannedResult, scenario index: Int, at position: ResultPosition, scheduler: ScenarioScheduler
    ) {
        let scenario = plannedResult.scenario
        let redirectResolve: ResultJob.Resolve = { [self] host, source, done in
            resolve(host, for: scenario, from: source, completion: done)
        }
        ResultJob(
            machine: ResultStateMachine(
                planned: plannedResult, retries: options.retries(for: scenario), redactor: options.redactor),
            engine: engine, clock: clock, resolve: redirectResolve, isInterrupted: { [interrupter] in interrupter.signal != nil }
        ) { [self] result, machine in
            if plannedResult.lane == nil {
                finished[index][position.slot] = true
            } else {
                stepsUnderWay[position] = nil
            }
            // Before any sink sees the result: its own evidence may hold what it captured.
            for secret in machine.capturedSecrets { options.redactor?.add(secret) }
            hand(result, scenario: index, at: position)
            if !flows.dependents[index].isEmpty {
                startSteps(after: result, of: index, at: position, lane: machine.laneForDependents(), scheduler: scheduler)
            }
            scheduler.finished()
        }.start()
    }

    /// Counts a result and hands it to the sink.
    private func hand(_ result: ScenarioResult, scenario index: Int, at position: ResultPosition) {
        var result = result
        if predecessorsOnly.contains(index) { result.predecessorOnly = true }
        counts = counts + result.outcome.counts
        finishedAt = DispatchTime.now()
        sink.finished(result, at: position)
    }

    /// The flow steps after `result` (scenario `index`, at `position`): on its lane when it
    /// passed (`lane`), else each skipped, naming it, and so on down the flow.
    private func startSteps(
        after result: ScenarioResult, of index: Int, at position: ResultPosition, lane: FlowLane?,
        scheduler: ScenarioScheduler
    ) {
        for (stepIndex, reference) in flows.dependents[index] {
            let step = scenarios[stepIndex]
            let base = self.position(scenario: stepIndex, slot: reference, lane: [position.slot] + position.lane)
            guard let lane else {
                let skipped = FlowSteps.skipped(step, after: result, predecessorHost: scenarios[index].request.url.host)
                let at = ResultPosition(suite: base.suite, scenario: base.scenario, slot: base.slot, lane: base.lane + [0])
                sink.planned(.steps(results: 1))
                hand(skipped, scenario: stepIndex, at: at)
                if !flows.dependents[stepIndex].isEmpty {
                    startSteps(after: skipped, of: stepIndex, at: at, lane: nil, scheduler: scheduler)
                }
                continue
            }
            scheduler.hold()
            let source = FlowSteps.lookupSource(of: step, on: lane)
            resolveBoth(
                step.request.url.host, for: step, map: source == .domainMap, resolver: source == .resolver
            ) { [self] mapAnswer, resolverAnswer in
                let results = FlowSteps.expand(step, on: lane, resolution: mapAnswer ?? resolverAnswer)
                scheduler.expanded(into: results.count)
                sink.planned(.steps(results: results.count))
                for (fan, plannedResult) in results.enumerated() {
                    let at = ResultPosition(suite: base.suite, scenario: base.scenario, slot: base.slot, lane: base.lane + [fan])
                    stepsUnderWay[at] = plannedResult
                    run(plannedResult, scenario: stepIndex, at: at, scheduler: scheduler)
                }
            }
        }
    }

    /// Where the result in `slot` (and `lane`) of the selected scenario `scenario` sits in the run.
    private func position(scenario: Int, slot: Int, lane: [Int] = []) -> ResultPosition {
        ResultPosition(suite: index, scenario: placesInPlan?[scenario] ?? scenario, slot: slot, lane: lane)
    }

    /// What a suite planned, handed over when the run has ended (see `retired`).
    struct Bookkeeping {
        fileprivate var planned: [[PlannedResult]?]
        fileprivate var finished: [[Bool]]
    }

    /// Hands over the bookkeeping, leaving this suite empty (after `finish`).
    func retire() -> Bookkeeping {
        defer {
            planned = []
            finished = []
        }
        return Bookkeeping(planned: planned, finished: finished)
    }

    /// Once the run has ended: hands each planned result that never finished (the run was
    /// interrupted) to the sink as skipped, in plan order, and returns the suite's summary.
    func finish() -> SuiteResult {
        for scenario in scenarios.indices where !flows.isStep[scenario] {
            let expansion = planned[scenario]
                ?? ResultExpansion.expand(scenarios[scenario], strategyOverride: options.strategyOverride, resolution: nil)
            for slot in expansion.indices where !(finished[scenario].indices.contains(slot) && finished[scenario][slot]) {
                let result = Self.notRun(expansion[slot])
                counts = counts + result.outcome.counts
                sink.notRun(result, at: position(scenario: scenario, slot: slot))
            }
        }
        for (position, step) in stepsUnderWay.sorted(by: { $0.key < $1.key }) {
            var result = Self.notRun(step)
            result.after = step.lane?.steps ?? []
            counts = counts + result.outcome.counts
            sink.notRun(result, at: position)
        }
        stepsUnderWay = [:]
        let end = finishedAt ?? started
        return SuiteResult(
            plan: PlanIdentity(name: plan.name, file: plan.path), startedAt: startedAt,
            duration: Double(end.uptimeNanoseconds - started.uptimeNanoseconds) / 1e9,
            hostname: Host.name, properties: properties(), counts: counts, httpdnsLookups: httpdnsLookups())
    }

    /// The latest lookup of each HTTPDNS map and host (a TTL may have renewed it during the
    /// run), as the properties keep the latest answer; sorted by map, then host.
    private func httpdnsLookups() -> [HTTPDNSLookupResult] {
        var latest: [String: [String: HTTPDNSLookupResult]] = [:]
        for lookup in resolver.httpdnsLookups { latest[lookup.map, default: [:]][lookup.host] = lookup }
        return latest.keys.sorted().flatMap { map in
            latest[map, default: [:]].sorted { $0.key < $1.key }.map(\.value)
        }
    }

    private static func notRun(_ planned: PlannedResult) -> ScenarioResult {
        ScenarioResult(
            scenario: planned.scenario.name, strategy: planned.strategy, ip: planned.ip?.text,
            tags: planned.scenario.tags, outcome: .skipped(reason: "interrupted"),
            evidence: Evidence(strategy: planned.strategy, ipSource: "", insecure: planned.scenario.settings.insecure),
            duration: 0)
    }

    /// Runner version, plan path, and each domain map's answers as the run saw them.
    private func properties() -> [Property] {
        var properties = [
            Property(name: "runner.version", value: RunnerVersion.current),
            Property(name: "plan.path", value: plan.path),
        ]
        var seen = Set<String>()
        for record in resolver.records.reversed() {
            // The latest answer per map and host (a TTL may have renewed it during the run).
            let name = "domains.\(record.map).\(record.host)"
            guard seen.insert(name).inserted else { continue }
            let value: String
            switch record.answer {
            case .success(let resolution):
                value = resolution.addresses.map(\.text).joined(separator: ", ") + " (\(resolution.source))"
                    + resolution.notes.map { "; \($0)" }.joined()
            case .failure(let error):
                value = "error: \(error.message)"
            }
            properties.append(Property(name: name, value: value))
        }
        let resolved = properties.prefix(2) + properties.dropFirst(2).sorted { $0.name < $1.name }
        return Array(resolved)
    }
}

private enum Host {
    static let name: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
