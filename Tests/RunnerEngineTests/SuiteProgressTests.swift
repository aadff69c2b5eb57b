import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// A plan's run as a value, driven with made-up answers and results: what a scenario looks up,
/// what it expands into, which steps a finished result starts or skips, what is counted, and
/// what an interrupted run reports as never run.
@Suite("The run as values: scenarios, lookups, flow steps and what never ran, without I/O", .timeLimit(.minutes(1)))
struct SuiteProgressTests {
    typealias Flows = FlowStepTests

    /// Each action as a line, for comparing whole sequences.
    static func lines(_ actions: [SuiteProgress.Action], of progress: SuiteProgress) -> [String] {
        actions.map { action in
            switch action {
            case .lookUp(let host, let scenario, let map, let resolver, let purpose):
                let what: String
                switch purpose {
                case .scenario(let index): what = "scenario \(index)"
                case .step(let index, let base, _): what = "step \(index) at \(position(base))"
                }
                return "look up \(host) for \(scenario.name) (\(what))\(map ? " map" : "")\(resolver ? " resolver" : "")"
            case .run(let index, let at):
                guard let planned = progress.plannedResult(scenario: index, at: at) else { return "run nothing at \(position(at))" }
                return "run \(planned.scenario.name) [\(planned.strategy.rawValue) \(planned.ip?.text ?? "-")] (\(index)) at \(position(at))"
            case .hand(let result, let at):
                return "hand \(result.scenario) \(result.outcome.kindName)\(result.predecessorOnly ? " (predecessor only)" : "") at \(position(at))"
            case .planned(let change):
                return "planned \(change)"
            case .expanded(let count):
                return "expanded into \(count)"
            case .hold:
                return "hold"
            }
        }
    }

    static func position(_ position: ResultPosition) -> String {
        "\(position.suite)/\(position.scenario)/\(position.slot)" + position.lane.map { "/\($0)" }.joined()
    }

    /// A plan of these scenarios (`after:` and tags as given), each run on every address.
    static func plan(_ scenarios: [(name: String, after: [String], tags: [String])]) throws -> Plan {
        let plan = try Flows.plan(scenarios)
        let everyEdge = plan.scenarios.map { scenario in
            var scenario = scenario
            scenario.ips = .all
            return scenario
        }
        return Plan(path: plan.path, name: plan.name, domainMaps: plan.domainMaps, scenarios: everyEdge, secrets: [])
    }

    static let twoEdges: SuiteProgress.Answer = .success(Resolution(
        addresses: [IPAddress("192.0.2.1"), IPAddress("192.0.2.2")].compactMap { $0 }, source: "static map 'm'", lookupTime: .seconds(0)))

    static func result(_ name: String, _ outcome: Outcome, ip: String = "192.0.2.1") -> ScenarioResult {
        ScenarioResult(
            scenario: name, strategy: .sniResolve, ip: ip, tags: [], outcome: outcome,
            evidence: Evidence(strategy: .sniResolve, ipSource: "static map 'm'", insecure: false), duration: .seconds(0.01))
    }

    @Test("a scenario looks its host up, then runs one result per address; a flow step waits for its predecessor")
    func aScenarioExpandsAfterItsLookup() throws {
        let plan = try Self.plan([("login", [], []), ("profile", ["login"], []), ("health", [], [])])
        var progress = SuiteProgress(plan: plan, suite: 3, options: RunOptions())
        #expect(progress.scenariosStartedByTheScheduler == 2)
        #expect(Self.lines(progress.start(scenario: 1), of: progress) == ["expanded into 0"])
        #expect(Self.lines(progress.start(scenario: 0), of: progress) == ["look up api.example.com for login (scenario 0) map"])
        let expanded = progress.lookedUp(for: .scenario(0), map: Self.twoEdges, resolver: nil)
        #expect(Self.lines(expanded, of: progress) == [
            "expanded into 2", "planned expanded(results: 2)",
            "run login [sni-resolve 192.0.2.1] (0) at 3/0/0", "run login [sni-resolve 192.0.2.2] (0) at 3/0/1",
        ])
        #expect(progress.finished[0] == [false, false])
    }

    @Test("a passed result starts its steps on its lane: a slot held, the step looked up as the lane says, run under it")
    func aPassedResultStartsItsSteps() throws {
        let plan = try Self.plan([("login", [], []), ("profile", ["login"], [])])
        var progress = SuiteProgress(plan: plan, suite: 0, options: RunOptions())
        _ = progress.lookedUp(for: .scenario(0), map: Self.twoEdges, resolver: nil)
        var (login, machine) = try Flows.passedLogin()
        let lane = try #require(machine.laneForDependents())
        let actions = progress.finished(&login, scenario: 0, at: ResultPosition(suite: 0, scenario: 0, slot: 1), lane: lane)
        #expect(!login.predecessorOnly)
        #expect(Self.lines(actions, of: progress) == ["hold", "look up api.example.com for profile (step 1 at 0/1/0/1)"])
        guard case .lookUp(_, _, _, _, let purpose) = try #require(actions.last) else {
            Issue.record("expected a lookup")
            return
        }
        // The lane pins the step to its predecessor's IP: no lookup answer is needed.
        let stepActions = progress.lookedUp(for: purpose, map: nil, resolver: nil)
        #expect(Self.lines(stepActions, of: progress) == [
            "expanded into 1", "planned steps(results: 1)", "run profile [sni-resolve 192.0.2.1] (1) at 0/1/0/1/0",
        ])
        #expect(progress.counts.passed == 1 && progress.finished[0] == [false, true])
    }

    @Test("a result that did not pass skips its steps, naming it, and theirs down the flow; all counted")
    func aFailedResultSkipsItsStepsDownTheFlow() throws {
        let plan = try Self.plan([("login", [], []), ("profile", ["login"], []), ("orders", ["profile"], [])])
        var progress = SuiteProgress(plan: plan, suite: 0, options: RunOptions())
        _ = progress.lookedUp(for: .scenario(0), map: Self.twoEdges, resolver: nil)
        var failed = Self.result("login", .failed([Problem(subject: "status", expected: "200", actual: "500")]))
        let actions = progress.finished(&failed, scenario: 0, at: ResultPosition(suite: 0, scenario: 0, slot: 0), lane: nil)
        #expect(Self.lines(actions, of: progress) == [
            "planned steps(results: 1)", "hand profile skipped at 0/1/0/0/0",
            "planned steps(results: 1)", "hand orders skipped at 0/2/0/0/0/0/0",
        ])
        #expect(progress.counts.failed == 1 && progress.counts.skipped == 2)
    }

    @Test("an interrupted run reports, in plan order, each planned result that never ran, then the steps under way")
    func whatNeverRan() throws {
        let plan = try Self.plan([("login", [], []), ("profile", ["login"], []), ("health", [], [])])
        var progress = SuiteProgress(plan: plan, suite: 0, options: RunOptions())
        _ = progress.lookedUp(for: .scenario(0), map: Self.twoEdges, resolver: nil)
        var (login, machine) = try Flows.passedLogin()
        let lane = try #require(machine.laneForDependents())
        let started = progress.finished(&login, scenario: 0, at: ResultPosition(suite: 0, scenario: 0, slot: 0), lane: lane)
        guard case .lookUp(_, _, _, _, let purpose) = try #require(started.last) else {
            Issue.record("expected a lookup")
            return
        }
        _ = progress.lookedUp(for: purpose, map: nil, resolver: nil)
        let notRun = progress.notRun()
        #expect(notRun.map { "\($0.result.scenario) \(Self.position($0.position))" } == [
            "login 0/0/1", "health 0/2/0", "profile 0/1/0/0/0",
        ])
        #expect(notRun.allSatisfy {
            if case .skipped(let reason) = $0.result.outcome { reason == "interrupted" } else { false }
        })
        #expect(notRun.last?.result.after.map(\.description) == ["login [sni-resolve 192.0.2.1]"])
        #expect(progress.counts.passed == 1 && progress.counts.skipped == 3)
        // Said once: a second call finds nothing under way.
        #expect(progress.notRun().map(\.result.scenario) == ["login", "health"])
    }

    @Test("a selection keeps each scenario's place in the plan, and marks a predecessor taken only for a step")
    func selectionKeepsPlacesAndMarksPredecessors() throws {
        let plan = try Self.plan([("health", [], []), ("login", [], []), ("orders", ["login"], ["api"])])
        var options = RunOptions()
        options.tags = ["api"]
        var progress = SuiteProgress(plan: plan, suite: 1, options: options)
        #expect(progress.scenarios.map(\.name) == ["login", "orders"])
        let expanded = progress.lookedUp(for: .scenario(0), map: Self.twoEdges, resolver: nil)
        #expect(Self.lines(expanded, of: progress).suffix(2) == [
            "run login [sni-resolve 192.0.2.1] (0) at 1/1/0", "run login [sni-resolve 192.0.2.2] (0) at 1/1/1",
        ])
        var failed = Self.result("login", .errored(TransferError(kind: .tls, message: "handshake")))
        let actions = progress.finished(&failed, scenario: 0, at: ResultPosition(suite: 1, scenario: 1, slot: 0), lane: nil)
        #expect(failed.predecessorOnly, "login ran only because the selected orders runs after it")
        #expect(Self.lines(actions, of: progress) == ["planned steps(results: 1)", "hand orders skipped at 1/2/0/0/0"])
    }
}

extension Outcome {
    /// `passed`, `failed`, `error` or `skipped`, as the reports say.
    fileprivate var kindName: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .errored: "error"
        case .skipped: "skipped"
        }
    }
}
