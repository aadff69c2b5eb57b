import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `runner serve` scraped by a real Prometheus server (`PrometheusServer`), end to end: what
/// promtool checks of the text is not all a scrape needs (the content type, the HTTP server, the
/// labels Prometheus adds and keeps), so this reads the results back the way a dashboard does,
/// through Prometheus' query API.
@Suite("runner serve scraped by Prometheus", .timeLimit(.minutes(3)))
struct PrometheusScrapeTests {
    /// One result that passes and one that fails, from a static map (no HTTPDNS: what is under
    /// test is the scrape, not the resolution).
    static let plan = """
        version: 1
        name: e2e
        defaults: {timeout: 15s, ca: {{ca}}, domains: lab}
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2]
        scenarios:
          - name: api passes
            strategy: sni-resolve
            request: {url: "https://api.lab.test:{{https}}/echo"}
          - name: api fails its status check
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/status/503"}
            expect: {status: 200}
        """

    /// A wait that ran out.
    struct WaitFailed: Error, CustomStringConvertible {
        var description: String
    }

    @Test("Prometheus scrapes runner serve and reads probe_success (1 and 0) with every label, and runner_cycles_total")
    func prometheusReadsTheLatestCycle() async throws {
        let lab = try await SharedLab.get()
        try await ServeUnderPrometheus.run(plan: try LabPlans.write(Self.plan, lab: lab), serveArguments: ["--label", "vantage=e2e"]) {
            prometheus, target in
            try await check(prometheus: prometheus, target: target)
        }
    }

    /// What Prometheus read from the runner, waited for, each wait with a deadline.
    func check(prometheus: PrometheusServer, target: String) async throws {
        // The target is up once a scrape got a 200 with a parsable exposition: the runner
        // answers 503 until its first cycle has completed.
        var seen = "no target yet"
        try await Self.waitUntil("Prometheus to scrape \(target) successfully (last seen: \(seen))", within: .seconds(30)) {
            let targets = try await prometheus.activeTargets()
            guard let runner = targets.first(where: { $0["scrapePool"] as? String == "runner" }) else { return false }
            seen = "health \(runner["health"] ?? "?"), lastError '\(runner["lastError"] ?? "")', scrapeUrl \(runner["scrapeUrl"] ?? "?")"
            return runner["health"] as? String == "up"
        }

        var results: [[String: Any]] = []
        try await Self.waitUntil("Prometheus to have both results' probe_success", within: .seconds(15)) {
            results = try await prometheus.query(#"probe_success{job="runner"}"#)
            return results.count == 2
        }
        let series = results.map { Self.series($0) }
        let common = ["__name__": "probe_success", "plan": "e2e", "ip": "127.0.0.2", "vantage": "e2e", "job": "runner", "instance": target]
        let passing = common.merging(["scenario": "api passes", "strategy": "sni-resolve"]) { $1 }
        let failing = common.merging(["scenario": "api fails its status check", "strategy": "header-only"]) { $1 }
        #expect(series.first { $0.labels == passing }?.value == "1", "\(series)")
        #expect(series.first { $0.labels == failing }?.value == "0", "\(series)")

        // A counter of cycles, with the constant label and the target's; it grows as cycles
        // complete (one every 500 ms, a scrape every second).
        var cycles: [[String: Any]] = []
        try await Self.waitUntil("runner_cycles_total in Prometheus", within: .seconds(15)) {
            cycles = try await prometheus.query(#"runner_cycles_total{job="runner"}"#)
            return cycles.count == 1
        }
        let first = Self.series(cycles[0])
        #expect(first.labels == ["__name__": "runner_cycles_total", "vantage": "e2e", "job": "runner", "instance": target])
        let firstCount = try #require(Double(first.value), "runner_cycles_total: \(first)")
        #expect(firstCount > 0)
        try await Self.waitUntil("runner_cycles_total to grow past \(first.value) in Prometheus", within: .seconds(15)) {
            let now = try await prometheus.query(#"runner_cycles_total{job="runner"}"#)
            return now.first.flatMap { Double(Self.series($0).value) }.map { $0 > firstCount } ?? false
        }
    }

    /// A series of an instant query: its labels (`__name__` too) and its value as Prometheus wrote it.
    static func series(_ result: [String: Any]) -> (labels: [String: String], value: String) {
        let labels = result["metric"] as? [String: String] ?? [:]
        let value = (result["value"] as? [Any])?.last as? String ?? "?"
        return (labels, value)
    }

    /// Polls `condition` every 100 ms until it holds; throws saying what never happened when
    /// `deadline` passes (the message is made then, so it can say what was last seen).
    static func waitUntil(
        _ what: @autoclosure () -> String, within deadline: Duration, _ condition: () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var lastError: (any Error)?
        while clock.now < end {
            do {
                if try await condition() { return }
                lastError = nil
            } catch {
                lastError = error  // Prometheus not answering yet is a reason to wait, until the deadline
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw WaitFailed(description: "waited \(deadline) for \(what())" + (lastError.map { "; last error: \($0)" } ?? ""))
    }

    /// SIGTERM, then SIGKILL when it has not ended 10 s later; how it ended.
    static func stop(_ serve: ServeTests.Serve) async -> String {
        let child = serve.child
        return (try? await offPool { () -> String in
            child.send(SIGTERM)
            if let termination = child.wait(deadline: .seconds(10)) { return "\(termination)" }
            child.send(SIGKILL)
            if let termination = child.wait(deadline: .seconds(5)) { return "killed after 10 s: \(termination)" }
            return "pid \(child.pid) did not end even after SIGKILL"
        }) ?? "could not be waited for"
    }
}
