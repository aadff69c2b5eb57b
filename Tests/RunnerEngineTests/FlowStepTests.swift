import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// Flows without sockets: a login's captures and cookies become the lane of the step after it,
/// which fills its request from them, keeps the strategy and IP, and names its predecessor.
@Suite("Flow steps: captures, lanes, skips and selection, without I/O", .timeLimit(.minutes(1)))
struct FlowStepTests {
    typealias Machine = ResultStateMachineTests

    static func login(strategy: StrategyKind = .sniResolve) throws -> PlannedResult {
        try Machine.planned(url: "https://api.example.com/login", strategy: strategy) { scenario in
            scenario.name = "login"
            scenario.captures = [
                Capture(
                    name: "token", source: .json(JSONPath(components: [.member("token")], text: "$.token")), secret: true,
                    location: SourceLocation(file: "p.yaml", line: 3, column: 7)),
                Capture(
                    name: "user", source: .header("X-User"), secret: false,
                    location: SourceLocation(file: "p.yaml", line: 4, column: 7)),
            ]
        }
    }

    static func response(_ status: Int, body: String, headers: [Header] = []) -> TransferOutcome {
        TransferOutcome(
            evidence: TransferEvidence(connectedIP: "192.0.2.1", connectedPort: 443, httpVersion: "2"),
            result: .success(TransferResponse(
                status: status, headers: headers, body: Data(body.utf8), bodyLength: body.utf8.count, bodySHA256: "")))
    }

    /// A passing login's lane: token `t0k/en+1` (secret), user `probe`, cookie `sid=abc`.
    static func passedLogin() throws -> (ScenarioResult, ResultStateMachine) {
        var machine = ResultStateMachine(planned: try login(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Machine.date)
        let action = machine.transferFinished(
            response(200, body: #"{"token":"t0k/en+1"}"#, headers: [
                Header(name: "X-User", value: "probe"), Header(name: "Set-Cookie", value: "sid=abc; Path=/"),
            ]), now: .seconds(0.1), date: Machine.date)
        return (try #require(action.result), machine)
    }

    @Test("a passing login captures its values (the secret one kept out of the evidence) and leaves its lane")
    func loginCapturesAndLeavesItsLane() throws {
        let (result, machine) = try Self.passedLogin()
        #expect(result.outcome.isPassed)
        #expect(result.evidence.captured == [CaptureRecord(name: "token", value: nil), CaptureRecord(name: "user", value: "probe")])
        #expect(machine.capturedSecrets == [SecretValue(name: "token", value: "t0k/en+1")])
        let lane = try #require(machine.laneForDependents())
        #expect(lane.steps.map(\.description) == ["login [sni-resolve 192.0.2.1]"])
        #expect(lane.strategy == .sniResolve)
        #expect(lane.ip == Machine.pinned)
        #expect(lane.captures["token"] == CapturedValue(text: "t0k/en+1", secret: true))
        #expect(lane.cookies.cookies.map(\.name) == ["sid"])
    }

    @Test("a capture that finds nothing fails the login, naming it, and leaves no lane")
    func aMissingCaptureFails() throws {
        var machine = ResultStateMachine(planned: try Self.login(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Machine.date)
        let result = try #require(machine.transferFinished(
            Self.response(200, body: #"{"other":1}"#), now: .seconds(0.1), date: Machine.date).result)
        guard case .failed(let problems) = result.outcome else {
            Issue.record("expected a failure, got \(result.outcome)")
            return
        }
        #expect(problems.map(\.description) == [
            "capture token: expected a value at $.token, got no such path",
            "capture user: expected header X-User, got no such header",
        ])
        #expect(machine.laneForDependents() == nil)
    }

    @Test("the step's first hop carries the session: cookie, captured values in the URL (encoded), header and body")
    func theStepFillsItsRequestFromTheLane() throws {
        let (_, loginMachine) = try Self.passedLogin()
        let lane = try #require(loginMachine.laneForDependents())
        let url = try #require(PlanURL.parse("https://api.example.com/me?t="))
        var step = try Machine.planned(url: "https://api.example.com/me?t=").scenario
        step.name = "profile"
        step.request = RequestSpec(
            method: "POST", url: url, headers: [Header(name: "Authorization", value: "Bearer ")],
            body: .bytes(Data(#"{"user":""}"#.utf8)))
        step.captureUses = [
            CaptureUse(name: "token", field: .pathAndQuery, offset: 6, location: step.location),
            CaptureUse(name: "token", field: .header("authorization"), offset: 7, location: step.location),
            CaptureUse(name: "user", field: .body, offset: 9, location: step.location),
        ]
        let planned = FlowSteps.expand(step, on: lane, resolution: nil)
        #expect(planned.count == 1)
        var machine = ResultStateMachine(planned: try #require(planned.first), retries: 0)
        let spec = try #require(machine.start(now: .seconds(1), date: Machine.date).spec)
        #expect(spec.url == "https://api.example.com/me?t=t0k%2Fen%2B1")
        #expect(spec.connectTo == "api.example.com:443:192.0.2.1:443", "the login's IP, kept")
        #expect(spec.headers.first { $0.name == "Authorization" }?.value == "Bearer t0k/en+1")
        #expect(spec.headers.first { $0.name == "Cookie" }?.value == "sid=abc")
        #expect(spec.body == .bytes(Data(#"{"user":"probe"}"#.utf8)))
        let result = try #require(machine.transferFinished(Self.response(200, body: "{}"), now: .seconds(1.1), date: Machine.date).result)
        #expect(result.displayName == "profile [sni-resolve 192.0.2.1] after login [sni-resolve 192.0.2.1]")
        #expect(result.evidence.ipSource == "kept from login [sni-resolve 192.0.2.1]")
        #expect(result.evidence.notes.contains("captures used: token (secret), user"))
    }

    @Test("a captured value with a line break cannot go into a header: the step fails, saying so")
    func aLineBreakCannotGoIntoAHeader() throws {
        let request = HopRequest(
            method: "GET", url: try #require(PlanURL.parse("https://a.test/")), headers: [Header(name: "X-T", value: "")],
            body: nil)
        let location = SourceLocation(file: "p.yaml", line: 1, column: 1)
        let filled = CaptureInsertion.fill(
            request, uses: [CaptureUse(name: "t", field: .header("x-t"), offset: 0, location: location)],
            captures: ["t": CapturedValue(text: "a\r\nInjected: 1", secret: false)])
        guard case .problem(let problem) = filled else {
            Issue.record("expected a problem, got \(filled)")
            return
        }
        #expect(problem.description == "${capture:t}: expected a value without CR, LF or NUL for header x-t, got a value with a line break or NUL")
    }

    @Test("the lane's strategy is kept when it can carry the step's scheme, else auto's; the IP only on the same host")
    func strategyAndIPOfAStep() throws {
        let (_, loginMachine) = try Self.passedLogin()
        let lane = try #require(loginMachine.laneForDependents())
        func step(_ url: String) throws -> Scenario {
            var scenario = try Machine.planned(url: url).scenario
            scenario.name = "next"
            return scenario
        }
        #expect(FlowSteps.strategy(of: try step("https://api.example.com/x"), on: lane) == .sniResolve)
        #expect(FlowSteps.strategy(of: try step("http://api.example.com/x"), on: lane) == .sniResolve, "connect-to carries http too")
        var trusted = lane
        trusted.strategy = .trustOverride
        #expect(FlowSteps.strategy(of: try step("http://api.example.com/x"), on: trusted) == .headerOnly, "auto's choice for http")
        #expect(FlowSteps.keptIP(of: try step("https://api.example.com/x"), on: lane) == Machine.pinned)
        #expect(FlowSteps.keptIP(of: try step("https://cdn.example.com/x"), on: lane) == nil)
        #expect(FlowSteps.needsResolution(try step("https://cdn.example.com/x"), on: lane))
        #expect(!FlowSteps.needsResolution(try step("https://api.example.com/x"), on: lane))
    }

    @Test("after a login that did not pass, the step is skipped on its lane, naming it")
    func aStepAfterAFailureIsSkipped() throws {
        var login = ScenarioResult(
            scenario: "login", strategy: .trustOverride, ip: "192.0.2.1", tags: [],
            outcome: .errored(TransferError(kind: .tls, message: "handshake failed")),
            evidence: Evidence(strategy: .trustOverride, ipSource: "", insecure: false), duration: .seconds(0.1))
        login.after = []
        var step = try Machine.planned(url: "https://api.example.com/me").scenario
        step.name = "profile"
        let skipped = FlowSteps.skipped(step, after: login, predecessorHost: "api.example.com")
        #expect(skipped.displayName == "profile [trust-override 192.0.2.1] after login [trust-override 192.0.2.1]")
        guard case .skipped(let reason) = skipped.outcome else {
            Issue.record("expected a skip, got \(skipped.outcome)")
            return
        }
        #expect(reason == "login [trust-override 192.0.2.1] did not pass (error: tls)")
    }

    static func plan(_ scenarios: [(name: String, after: [String], tags: [String])]) throws -> Plan {
        let location = SourceLocation(file: "p.yaml", line: 1, column: 1)
        let base = try Machine.planned().scenario
        let list = scenarios.map { entry in
            var scenario = base
            scenario.name = entry.name
            scenario.tags = entry.tags
            scenario.after = entry.after.map { ScenarioReference(name: $0, location: location) }
            return scenario
        }
        return Plan(path: "p.yaml", name: "flows", domainMaps: [], scenarios: list, secrets: [])
    }

    @Test("--tag and --filter also take every scenario a chosen one runs after, marked as such")
    func selectionPullsPredecessors() throws {
        let plan = try Self.plan([
            ("login", [], []), ("profile", ["login"], []), ("orders", ["profile"], ["api"]), ("health", [], []),
        ])
        var options = RunOptions()
        options.tags = ["api"]
        let selection = options.selection(of: plan)
        #expect(selection.indices == [0, 1, 2])
        #expect(selection.predecessorsOnly == [0, 1])
    }

    @Test("a flow stays in one shard: its members share the shard of its first scenario")
    func aFlowStaysInOneShard() throws {
        let plan = try Self.plan(
            [("login", [], [])] + (1...40).map { ("step\($0)", ["login"], []) } + (1...40).map { ("alone\($0)", [], []) })
        var whole: [Int] = []
        for index in 1...4 {
            var options = RunOptions()
            options.shard = Shard(index: index, count: 4)
            #expect(options.shard != nil, "shard \(index) of 4")
            let taken = options.selection(of: plan).indices
            let flow = taken.filter { $0 <= 40 }
            #expect(flow.isEmpty || flow == Array(0...40), "shard \(index) split the flow: \(flow)")
            whole += taken
        }
        #expect(whole.sorted() == Array(plan.scenarios.indices), "every scenario in exactly one shard")
    }
}
