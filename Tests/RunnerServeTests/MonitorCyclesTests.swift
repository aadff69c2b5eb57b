import Foundation
import LabTestSupport
import NIOConcurrencyHelpers
import PlanFixtures
import RunnerEngine
import RunnerPlan
import RunnerReport
import Testing

@testable import RunnerServe

/// `MonitorCycles` with no server and no signals: cycles against the in-process lab published to
/// a `CycleSnapshot`, reloads that fail keeping the running plans, and a stop ending the loop.
@Suite("MonitorCycles", .timeLimit(.minutes(2)))
struct MonitorCyclesTests {
    static func plan(scenario: String) -> String {
        """
        version: 1
        name: cycles
        defaults: {ca: "{{ca}}", domains: lab}
        domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
        scenarios:
          - name: \(scenario)
            # Plain HTTP: no handshake to slow a loaded machine's cycle past its timeout.
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/echo"}
        """
    }

    /// What the cycles said, in order, and whether their loop has ended.
    final class Watch: Sendable {
        private let said = NIOLockedValueBox<[String]>([])
        private let ended = NIOLockedValueBox(false)

        func log(_ line: String) { said.withLockedValue { $0.append(line) } }
        var lines: [String] { said.withLockedValue { $0 } }
        func cyclesDone() -> Int { lines.filter { $0.hasPrefix("serve: cycle ") }.count }

        func end() { ended.withLockedValue { $0 = true } }
        var hasEnded: Bool { ended.withLockedValue { $0 } }
    }

    /// Whether the plans can run, as the command's `problems` says: a test switch.
    final class Switch: Sendable {
        private let on = NIOLockedValueBox(false)
        func set(_ value: Bool) { on.withLockedValue { $0 = value } }
        var isOn: Bool { on.withLockedValue { $0 } }
    }

    private func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    /// The metrics of the latest cycle as text; empty before the first.
    private func metrics(_ snapshot: CycleSnapshot) -> String { text(snapshot.latest?.metrics()) }

    /// The JSON report of the latest cycle as text; empty before the first.
    private func reportJSON(_ snapshot: CycleSnapshot) -> String { text(snapshot.latest?.reportJSON) }

    @Test("cycles publish their reports; a reload with errors or problems keeps the running plans, a good one swaps them; stop ends the loop")
    func cyclesPublishAndReloadsKeepOrSwapThePlans() async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.write(Self.plan(scenario: "first plan answers"), lab: lab)
        let broken = Switch()
        let refused = Switch()
        let source = MonitorPlanSource(
            load: { () -> [Plan]? in
                guard !broken.isOn, let plan = try? PlanLoader.load(path: path, environment: [:]) else { return nil }
                return [plan]
            },
            problems: { _ in refused.isOn ? ["no scenario matches the --tag/--filter given"] : [] })
        let snapshot = CycleSnapshot(constantLabels: [])
        let watch = Watch()
        let cycles = try MonitorCycles(
            plans: [try PlanLoader.load(path: path, environment: [:])], source: source, options: RunOptions(),
            copies: ReportTargets(junit: nil, json: nil, html: nil), every: .milliseconds(100), snapshot: snapshot,
            log: { watch.log($0) })
        #expect(snapshot.latest == nil)
        Thread {
            cycles.run()
            watch.end()
        }.start()
        defer { cycles.stop(signal: SIGTERM) }

        try #require(await eventually(within: .seconds(30)) { watch.cyclesDone() >= 1 }, "no cycle completed: \(watch.lines)")
        let first = try #require(snapshot.latest)
        #expect(text(first.reportJSON).contains("\"first plan answers\""))
        #expect(text(first.junitXML).contains("<testsuites"))
        #expect(text(first.reportHTML).hasPrefix("<!DOCTYPE html>"))
        #expect(text(first.metrics()).contains("runner_config_last_reload_successful 1\n"))
        #expect(watch.lines.first?.hasPrefix("serve: cycle 1 done in ") == true, "\(watch.lines)")
        #expect(watch.lines.first?.hasSuffix(": 1 passed, 0 failed, 0 errors") == true, "\(watch.lines)")

        // A plan with errors: said, flagged in the metrics at once, and the running plans stay.
        try LabPlans.fill(Self.plan(scenario: "second plan answers"), lab: lab).write(toFile: path, atomically: true, encoding: .utf8)
        broken.set(true)
        cycles.reload()
        #expect(watch.lines.contains("serve: reload failed: the plans above have errors; the running plans stay"))
        #expect(metrics(snapshot).contains("runner_config_last_reload_successful 0\n"))
        // Plans that load but cannot run with the command's choices: their problems said, the same.
        broken.set(false)
        refused.set(true)
        cycles.reload()
        #expect(watch.lines.contains("error: no scenario matches the --tag/--filter given"))
        #expect(watch.lines.contains("serve: reload failed; the running plans stay"))
        let done = watch.cyclesDone()
        try #require(await eventually(within: .seconds(30)) { watch.cyclesDone() > done }, "\(watch.lines)")
        #expect(reportJSON(snapshot).contains("\"first plan answers\""))

        // A good reload: the next cycle runs the new plans, and the metrics say it went well.
        refused.set(false)
        cycles.reload()
        #expect(watch.lines.contains("serve: reloaded 1 plan; the next cycle runs them"))
        #expect(metrics(snapshot).contains("runner_config_last_reload_successful 1\n"))
        try #require(
            await eventually(within: .seconds(30)) { reportJSON(snapshot).contains("\"second plan answers\"") },
            "\(watch.lines)")

        #expect(cycles.stop(signal: SIGTERM))
        #expect(!cycles.stop(signal: SIGINT), "a second stop is told it is one")
        #expect(await eventually(within: .seconds(30)) { watch.hasEnded }, "the loop did not end on stop")
    }

    @Test("stopped before it runs, the loop runs no cycle and publishes nothing")
    func stoppedBeforeItRunsNothingRuns() throws {
        let snapshot = CycleSnapshot(constantLabels: [])
        let watch = Watch()
        let cycles = try MonitorCycles(
            plans: [], source: MonitorPlanSource(load: { nil }, problems: { _ in [] }), options: RunOptions(),
            copies: ReportTargets(junit: nil, json: nil, html: nil), every: .seconds(60), snapshot: snapshot,
            log: { watch.log($0) })
        #expect(cycles.stop(signal: SIGINT))
        cycles.run()
        #expect(snapshot.latest == nil)
        #expect(watch.lines == [])
    }
}
