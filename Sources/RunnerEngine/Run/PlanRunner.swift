import Foundation
import RunnerPlan
import RunnerResults
import RunnerState
import RunnerTransport
import RunnerVocabulary

/// Runs validated plans: each scenario resolves its host, expands into its results, and every
/// transfer runs on one libcurl engine (`jobs` in flight across all plans); each result is judged
/// and handed to the sink as it finishes, and kept by no one here.
public final class PlanRunner {
    private let options: RunOptions
    private let sink: any ResultSink
    /// Stops the run from another thread (SIGINT/SIGTERM).
    public let interrupter = RunInterrupter()
    /// The last run's bookkeeping (every planned result), kept as long as the runner: freeing
    /// it piece by piece takes a large run tens of milliseconds, and a command line tool may
    /// exit without it. The engine itself is released when a run ends, closing its connections.
    private var retired: [SuiteRun.Bookkeeping] = []

    /// - Parameter sink: takes every result as it finishes, then, when the run was interrupted,
    ///   each planned result that never finished.
    public init(options: RunOptions, sink: any ResultSink) {
        self.options = options
        self.sink = sink
    }

    /// Runs `plans` to completion and returns one suite per plan (its counts, not its results).
    public func run(_ plans: [Plan]) throws(CurlError) -> RunResult {
        let engine = try TransferEngine(maxInFlight: max(1, options.jobs))
        let clock = options.clock
        let startedAt = clock.wall.now()
        let started = clock.monotonic.now()
        // The run is a cycle: each (address, port) an SDK ranks is connected to once in it.
        let probes = ConnectProbeCycle()
        let suites = plans.enumerated().map {
            SuiteRun(
                plan: $1, index: $0, options: options, engine: engine, interrupter: interrupter, sink: sink, clock: clock,
                probes: probes)
        }
        let scheduler = ScenarioScheduler(
            limit: max(1, options.jobs), interrupter: interrupter, suites: suites.map { ($0, $0.scenarios.indices) })
        interrupter.attach(engine)
        defer { interrupter.detach() }
        sink.planned(.scenarios(suites.reduce(0) { $0 + $1.scenariosStartedByTheScheduler }))
        scheduler.pump()
        engine.run()
        let duration = clock.monotonic.elapsed(since: started)
        let stateRecording = recordedState()
        var suiteResults = suites.map { $0.finish() }
        // One count for the run: every plan's rankings read the same connects.
        for index in suiteResults.indices where plans[index].ranksAddresses {
            suiteResults[index].properties.append(Property(name: "sdk.ranking_connects", value: String(probes.connectsMade)))
        }
        if let stateRecording {
            for index in suiteResults.indices {
                suiteResults[index].properties += Self.properties(of: stateRecording, plan: suiteResults[index].plan.name)
            }
        }
        let run = RunResult(
            suites: suiteResults, startedAt: startedAt,
            duration: duration, interruptedBy: interrupter.signal, connectionsOpened: engine.connectionsOpened,
            shard: options.shard, stateRecording: stateRecording)
        retired = suites.map { $0.retire() }
        return run
    }

    /// Waits for the run's answers to reach the state file; what it took of them. A memory
    /// that is no file (`serve` without `--state`) is said only when it failed.
    private func recordedState() -> StateRecording? {
        guard let memory = options.addressMemory else { return nil }
        let recording = memory.flush()
        return memory.isInMemory && recording.isComplete ? nil : recording
    }

    /// A suite's properties for the state file: its path, and what it did not record of the
    /// plan's answers.
    private static func properties(of recording: StateRecording, plan: String) -> [Property] {
        var properties = [Property(name: "state.file", value: recording.file)]
        let answers = recording.notRecorded(ofPlan: plan)
        guard !answers.isEmpty else { return properties }
        properties.append(Property(name: "state.not_recorded", value: recording.summary(of: answers)))
        return properties
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

/// One plan's run on the engine: performs what its `SuiteProgress` decides — the lookups
/// through its resolver, each result's job, the sink, the scheduler's slots.
final class SuiteRun: ResultJobOwner {
    private var progress: SuiteProgress
    private let plan: Plan
    private let options: RunOptions
    private let engine: TransferEngine
    private let resolver: DomainResolver
    private let interrupter: RunInterrupter
    private let sink: any ResultSink
    private let clock: RunClock
    private let startedAt: Date
    /// Readings of the clock's monotonic half.
    private let started: UInt64
    private var finishedAt: UInt64?

    fileprivate init(
        plan: Plan, index: Int, options: RunOptions, engine: TransferEngine, interrupter: RunInterrupter,
        sink: any ResultSink, clock: RunClock, probes: ConnectProbeCycle
    ) {
        self.plan = plan
        self.options = options
        self.engine = engine
        self.interrupter = interrupter
        self.sink = sink
        self.clock = clock
        startedAt = clock.wall.now()
        started = clock.monotonic.now()
        self.resolver = DomainResolver(
            plan: plan, sources: AnswerSources(engine: engine, probes: probes, clock: clock.monotonic), clock: clock.monotonic,
            wallClock: clock.wall, memory: options.resolutionMemory, addressMemory: options.addressMemory,
            redactor: options.redactor)
        progress = SuiteProgress(plan: plan, suite: index, options: options)
    }

    /// The scenarios the scheduler starts from (the selected ones).
    var scenarios: [Scenario] { progress.scenarios }

    /// The scenarios that start on their own (flow steps start on their predecessors' lanes).
    var scenariosStartedByTheScheduler: Int { progress.scenariosStartedByTheScheduler }

    func start(scenario index: Int, scheduler: ScenarioScheduler) {
        perform(progress.start(scenario: index), scheduler: scheduler)
    }

    /// Carries out `actions` in order; a lookup's answer, and a result's end, bring more.
    private func perform(_ actions: [SuiteProgress.Action], scheduler: ScenarioScheduler) {
        for action in actions {
            switch action {
            case .lookUp(let host, let scenario, let map, let asksResolver, let purpose):
                let clients = options.clients(askedBy: scenario.domainMap, in: plan)
                lookUp(AddressLookup(host: host, for: scenario, map: map, resolver: asksResolver, clients: clients), for: scenario) {
                    [self] mapAnswer, resolverAnswer in
                    perform(progress.lookedUp(for: purpose, map: mapAnswer, resolver: resolverAnswer), scheduler: scheduler)
                }
            case .run(let index, let position):
                guard let plannedResult = progress.plannedResult(scenario: index, at: position) else { continue }
                run(plannedResult, scenario: index, at: position, scheduler: scheduler)
            case .hand(let result, let position):
                hand(result, at: position)
            case .planned(let change):
                sink.planned(change)
            case .expanded(let count):
                scheduler.expanded(into: count)
            case .hold:
                scheduler.hold()
            }
        }
    }

    typealias Answer = Result<Resolution, TransferError>

    /// Asks what `lookup` needs, the way `scenario` looks hosts up (IP version, CA, resolver,
    /// connect timeout; cache and fallback included), feeding each answer back until it is done.
    /// Every answer comes on the engine's thread, so the value is kept in a box of its own.
    private func lookUp(
        _ lookup: AddressLookup, for scenario: Scenario, completion: @escaping (_ map: Answer?, _ resolver: Answer?) -> Void
    ) {
        final class Box {
            var lookup: AddressLookup
            init(_ lookup: AddressLookup) { self.lookup = lookup }
        }
        let box = Box(lookup)
        func carry(_ next: AddressLookup.Next) {
            switch next {
            case .wait:
                break
            case .done(let map, let resolver):
                completion(map, resolver)
            case .ask(let questions):
                for question in questions {
                    resolver.resolve(
                        host: question.host, map: question.map, ipVersion: scenario.ipVersion,
                        caFile: scenario.settings.caFile, resolver: scenario.settings.resolver,
                        systemTimeout: scenario.settings.connectTimeout, client: question.client
                    ) { answer in
                        carry(box.lookup.answered(question, answer))
                    }
                }
            }
        }
        carry(box.lookup.start())
    }

    /// Runs one result (with the retries a failure earns), counts and hands over its verdict,
    /// then starts the flow steps that run after it (`finished(_:job:)`).
    private func run(
        _ plannedResult: PlannedResult, scenario index: Int, at position: ResultPosition, scheduler: ScenarioScheduler
    ) {
        ResultJob(
            machine: ResultStateMachine(
                planned: plannedResult, retries: options.retries(for: plannedResult.scenario), redactor: options.redactor,
                digestsBodies: options.digestsBodies, strictAppPolicy: options.strictAppPolicy),
            engine: engine, clock: clock, owner: self, scenarioIndex: index, position: position,
            scheduler: scheduler
        ).start()
    }

    /// Hands a counted result to the sink.
    private func hand(_ result: ScenarioResult, at position: ResultPosition) {
        finishedAt = clock.monotonic.now()
        sink.finished(result, at: position)
    }

    // MARK: ResultJobOwner

    /// A redirect's host, looked up as the result's first population (as this machine without one).
    func resolve(
        host: String, source: AddressSource, for job: ResultJob, completion: @escaping (Result<Resolution, TransferError>) -> Void
    ) {
        let scenario = job.scenario
        let lookup = AddressLookup(
            host: host, for: scenario, map: source == .domainMap, resolver: source == .resolver, clients: job.redirectClients)
        lookUp(lookup, for: scenario) { map, resolver in
            // One source was asked: its answer is there.
            if let answer = map ?? resolver { completion(answer) }
        }
    }

    var isInterrupted: Bool { interrupter.signal != nil }

    func finished(_ result: consuming ScenarioResult, job: ResultJob) {
        // Before any sink sees the result: its own evidence may hold what it captured.
        for secret in job.capturedSecrets { options.redactor?.add(secret) }
        var result = result
        let steps = progress.finished(&result, scenario: job.scenarioIndex, at: job.position, lane: job.laneForDependents())
        hand(result, at: job.position)
        if !steps.isEmpty { perform(steps, scheduler: job.scheduler) }
        job.scheduler.finished()
    }

    /// What a suite planned, handed over when the run has ended (see `PlanRunner.retired`).
    struct Bookkeeping {
        fileprivate var planned: [[PlannedResult]?]
        fileprivate var finished: [[Bool]]
    }

    /// Hands over the bookkeeping, leaving this suite empty (after `finish`).
    func retire() -> Bookkeeping {
        let kept = progress.retire()
        return Bookkeeping(planned: kept.planned, finished: kept.finished)
    }

    /// Once the run has ended: hands each planned result that never finished (the run was
    /// interrupted) to the sink as skipped, in plan order, and returns the suite's summary.
    func finish() -> SuiteResult {
        for (result, position) in progress.notRun() { sink.notRun(result, at: position) }
        let end = finishedAt ?? started
        return SuiteResult(
            plan: PlanIdentity(name: plan.name, file: plan.path), startedAt: startedAt,
            duration: MonotonicClock.between(started, end),
            hostname: Host.name, properties: properties(), counts: progress.counts, httpdnsLookups: httpdnsLookups())
    }

    /// The latest lookup of each HTTPDNS map, host and client (a TTL may have renewed it during
    /// the run), as the properties keep the latest answer; sorted by map, host, then client (as
    /// this machine first).
    private func httpdnsLookups() -> [HTTPDNSLookupResult] {
        struct Asked: Hashable {
            var map: String
            var host: String
            var client: String?
        }
        var latest: [Asked: HTTPDNSLookupResult] = [:]
        for lookup in resolver.httpdnsLookups { latest[Asked(map: lookup.map, host: lookup.host, client: lookup.client)] = lookup }
        return latest.values.sorted {
            ($0.map, $0.host, $0.client ?? "") < ($1.map, $1.host, $1.client ?? "")
        }
    }

    /// Runner version, plan path, and each domain map's answers as the run saw them (with the
    /// addresses it no longer returns but `retain:` still checks).
    private func properties() -> [Property] {
        var properties = [
            Property(name: "runner.version", value: RunnerVersion.current),
            Property(name: "plan.path", value: plan.path),
        ]
        var seen = Set<String>()
        for record in resolver.records.reversed() {
            // The latest answer per map, host and client (a TTL may have renewed it during the run).
            let name = "domains.\(record.map).\(record.host)" + (record.client.map { " as \($0)" } ?? "")
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
            // What the app's SDK hands out from it (`sdk:`), whether or not a result checks it.
            if case .success(let resolution) = record.answer, let pick = resolution.pick {
                let picked = pick.choice.picked.map(\.description).joined(separator: ", ")
                properties.append(Property(name: "\(name) pick", value: picked.isEmpty ? "none: the answer is empty" : picked))
            }
            // The addresses `retain:` still checks for this answer, each with why (JUnit has no
            // property per test case: the suite names them).
            if case .success(let resolution) = record.answer, !resolution.retained.isEmpty {
                let retained = resolution.retained.map { "\($0.address.text) (\($0.evidence.summary))" }
                properties.append(Property(name: "\(name) retained", value: retained.joined(separator: ", ")))
            }
        }
        let resolved = properties.prefix(2) + properties.dropFirst(2).sorted { $0.name < $1.name }
        return Array(resolved)
    }
}

extension Plan {
    /// Whether an HTTPDNS map of the plan ranks its answers by connect time (`sdk:` with `rank`).
    fileprivate var ranksAddresses: Bool {
        domainMaps.contains { map in
            guard case .httpdns(let service) = map.source, let profile = service.sdk else { return false }
            return profile.kind.canRank && profile.ranking != nil
        }
    }
}

private enum Host {
    static let name: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
