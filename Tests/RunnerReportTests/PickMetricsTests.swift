import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// `runner_app_pick` and `runner_app_pick_success`: one series per plan, map, host, population
/// and address its SDK picks (`sdk:`), the results that share it together.
@Suite struct PickMetricsTests {
    static func result(
        _ scenario: String, _ strategy: StrategyKind, _ ip: String?, _ outcome: Outcome, pick: PickEvidence?
    ) -> ScenarioResult {
        var result = Fixture.passed
        result.scenario = scenario
        result.strategy = strategy
        result.ip = ip
        result.outcome = outcome
        result.evidence.pick = pick
        return result
    }

    static func pick(_ clients: [String], map: String = "ali", host: String = "api.example.com") -> PickEvidence {
        PickEvidence(
            map: map, host: host, sdk: "alibaba-android",
            pickers: clients.map { .init(client: $0, reason: "first in the answer; ranking off") })
    }

    static let failure = Outcome.failed([Problem(subject: "status", expected: "200", actual: "503")])

    /// The exposition of `results` (one plan, `p`) with constant labels `labels`.
    static func exposition(
        _ results: [ScenarioResult], redactor: Redactor = Fixture.redactor, labels: [String] = []
    ) throws -> String {
        let run = RecordedRun(
            suites: [RecordedSuite(
                name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                results: results)],
            startedAt: Fixture.start, duration: .seconds(1))
        let collector = MetricsCollector(plans: run.plans, redactor: redactor)
        run.play(into: collector)
        return String(decoding: MetricsExposition(
            cycle: collector.samples(of: run.result), cyclesTotal: 1, configLastReloadSuccessful: true, version: "1",
            constantLabels: try MetricLabel.parse(labels)
        ).render(), as: UTF8.self)
    }

    /// The pick families' lines of `text`, their HELP and TYPE included.
    static func pickLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.contains("runner_app_pick") }
            .map { $0 + "\n" }.joined()
    }

    /// Two populations pick different addresses of one answer; one of them fails under one
    /// scenario. The address nobody picks, and the results of a map without `sdk:`, have no
    /// series; a second scenario on the same map and host shares the picks' series; results that
    /// were skipped count neither way, and a pick whose results were all skipped has no success.
    @Test func eachPopulationsPickIsOneSeriesWithItsSuccess() async throws {
        let results = [
            Self.result("api", .sniResolve, "192.0.2.1", .passed, pick: Self.pick(["gd-mobile"])),
            Self.result("api", .sniResolve, "192.0.2.2", Self.failure, pick: Self.pick(["sh-telecom"])),
            Self.result("api", .sniResolve, "192.0.2.3", Self.failure, pick: Self.pick([])),
            Self.result("health", .trustOverride, "192.0.2.1", .passed, pick: Self.pick(["gd-mobile"])),
            Self.result("health", .trustOverride, "192.0.2.2", .passed, pick: Self.pick(["sh-telecom"])),
            Self.result("after login", .trustOverride, "192.0.2.1", .skipped(reason: "not run: login failed"), pick: Self.pick(["gd-mobile"])),
            Self.result("status", .sniResolve, "192.0.2.9", .skipped(reason: "not run: login failed"),
                        pick: Self.pick([PickEvidence.thisMachine], map: "tencent")),
            Self.result("plain", .sniResolve, "192.0.2.1", Self.failure, pick: nil),
        ]
        let text = try Self.exposition(results, labels: ["vantage=sh"])
        let m = #"{plan="p",map="ali",host="api.example.com",client="gd-mobile",ip="192.0.2.1",vantage="sh"}"#
        let t = #"{plan="p",map="ali",host="api.example.com",client="sh-telecom",ip="192.0.2.2",vantage="sh"}"#
        let h = #"{plan="p",map="tencent",host="api.example.com",client="this machine",ip="192.0.2.9",vantage="sh"}"#
        #expect(Self.pickLines(text) == """
            # HELP runner_app_pick 1 for each address a client population's HTTPDNS SDK picks for the host (the address its apps connect to); absent for the others.
            # TYPE runner_app_pick gauge
            runner_app_pick\(m) 1
            runner_app_pick\(t) 1
            runner_app_pick\(h) 1
            # HELP runner_app_pick_success Whether every result on the address the population's SDK picks passed (1) or one failed or errored (0); absent when all were skipped.
            # TYPE runner_app_pick_success gauge
            runner_app_pick_success\(m) 1
            runner_app_pick_success\(t) 0

            """, "\(text)")
        try await MetricsReportTests.expectValid(text)
    }

    /// An address two populations pick is a series for each, in the pickers' order; an errored
    /// result fails the pick as a failed one does.
    @Test func anAddressTwoPopulationsPickIsASeriesForEach() async throws {
        let results = [
            Self.result("api", .sniResolve, "2001:db8::1", .passed, pick: Self.pick(["gd-mobile", "sh-telecom"])),
            Self.result(
                "api", .trustOverride, "2001:db8::1", .errored(TransferError(kind: .connect, message: "refused")),
                pick: Self.pick(["gd-mobile", "sh-telecom"])),
        ]
        let text = try Self.exposition(results)
        #expect(Self.pickLines(text).split(separator: "\n").filter { !$0.hasPrefix("#") } == [
            #"runner_app_pick{plan="p",map="ali",host="api.example.com",client="gd-mobile",ip="2001:db8::1"} 1"#,
            #"runner_app_pick{plan="p",map="ali",host="api.example.com",client="sh-telecom",ip="2001:db8::1"} 1"#,
            #"runner_app_pick_success{plan="p",map="ali",host="api.example.com",client="gd-mobile",ip="2001:db8::1"} 0"#,
            #"runner_app_pick_success{plan="p",map="ali",host="api.example.com",client="sh-telecom",ip="2001:db8::1"} 0"#,
        ], "\(text)")
        try await MetricsReportTests.expectValid(text)
    }

    /// Without a pick (no `sdk:`, or an address no population picks) nothing is written: not
    /// even the families' HELP and TYPE.
    @Test func resultsWithoutAPickHaveNoPickSeries() async throws {
        let fixture = try RenderedReport.metrics(MetricsFixture.run(), redactor: Fixture.redactor)
        #expect(!fixture.contains("runner_app_pick"))
        let unpicked = try Self.exposition([
            Self.result("api", .sniResolve, "192.0.2.3", .passed, pick: Self.pick([])),
            Self.result("api", .sniResolve, nil, Self.failure, pick: Self.pick(["gd-mobile"])),
        ])
        #expect(!unpicked.contains("runner_app_pick"), "\(unpicked)")
        try await MetricsReportTests.expectValid(unpicked)
    }

    /// The labels are masked and escaped as every series' are; picks that masking makes alike
    /// are one series, failing when either fails.
    @Test func pickLabelsAreRedactedAndEscaped() async throws {
        let hostile = "gd \"mobile\" \\ \(Fixture.secret)"
        let text = try Self.exposition([
            Self.result("api", .sniResolve, "192.0.2.1", .passed, pick: Self.pick([hostile], map: "ali \(Fixture.secret)")),
        ])
        #expect(!text.contains(Fixture.secret))
        #expect(text.contains(
            #"runner_app_pick{plan="p",map="ali ***",host="api.example.com",client="gd \"mobile\" \\ ***",ip="192.0.2.1"} 1"#),
            "\(text)")
        try await MetricsReportTests.expectValid(text)

        let alike = try Self.exposition(
            [
                Self.result("api", .sniResolve, "192.0.2.1", .passed, pick: Self.pick(["isp alpha"])),
                Self.result("web", .sniResolve, "192.0.2.1", Self.failure, pick: Self.pick(["isp omega"])),
            ], redactor: Redactor(secrets: ["alpha", "omega"]))
        #expect(Self.pickLines(alike).split(separator: "\n").filter { !$0.hasPrefix("#") } == [
            #"runner_app_pick{plan="p",map="ali",host="api.example.com",client="isp ***",ip="192.0.2.1"} 1"#,
            #"runner_app_pick_success{plan="p",map="ali",host="api.example.com",client="isp ***",ip="192.0.2.1"} 0"#,
        ], "\(alike)")
        try await MetricsReportTests.expectValid(alike)
    }

    /// The tally keeps its series in plan order whatever order results finish in, and a
    /// result without a pick adds nothing.
    @Test func theTallyIsInPlanOrderWhateverTheArrival() {
        var tally = AppPickTally()
        let late = Self.result("b", .sniResolve, "192.0.2.2", .passed, pick: Self.pick(["z"]))
        let early = Self.result("a", .sniResolve, "192.0.2.1", .passed, pick: Self.pick(["y", "x"]))
        tally.add(Self.result("c", .sniResolve, "192.0.2.3", .passed, pick: nil), at: ResultPosition(suite: 0, scenario: 0, slot: 0))
        #expect(tally.isEmpty)
        tally.add(late, at: ResultPosition(suite: 0, scenario: 1, slot: 0))
        tally.add(early, at: ResultPosition(suite: 0, scenario: 0, slot: 3))
        #expect(tally.samples(redactor: Redactor(secrets: [])).map { "\($0.client) \($0.ip)" } == [
            "y 192.0.2.1", "x 192.0.2.1", "z 192.0.2.2",
        ])
    }
}
