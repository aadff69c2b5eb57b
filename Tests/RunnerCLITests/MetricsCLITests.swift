import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// `--metrics FILE` end to end: the demo plan against the lab, its exposition checked by
/// promtool and read back for real values.
@Suite("runner --metrics", .timeLimit(.minutes(3)))
struct MetricsCLITests {
    let cli = CLITests()

    /// The samples of `text` named `name` whose labels include every one of `labels`.
    func values(_ text: String, _ name: String, _ labels: [String: String]) -> [String] {
        Exposition.samples(text).filter { sample in
            sample.name == name && labels.allSatisfy { label in sample.labels.contains { $0 == (label.key, label.value) } }
        }.map(\.value)
    }

    @Test func theDemoPlansMetricsAreValidAndTrue() async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.temporaryDirectory().appendingPathComponent("runner.prom").path
        let output = try await cli.runner(cli.demoArguments(lab) + ["--metrics", path, "-q"])
        #expect(output.status == 1, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let promtool = try await Exposition.promtool(text)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(text) == [])
        #expect(!text.contains(LabDNS.alibabaSecret))

        // 21 results, as the console counted them: a runner_result status each.
        #expect(values(text, "runner_result", ["status": "pass"]).count == 21)
        #expect(values(text, "runner_result", ["status": "pass"]).filter { $0 == "1" }.count == 20)
        // The demo's resolver check: the lab's honest DNS server gave nothing foreign.
        #expect(values(text, "runner_dns_foreign_addresses", ["host": "api.lab.test", "strategy": "system"]) == ["0"])
        // The flow's step names the result it ran after.
        let step = [
            "scenario": "use the session on the login's server", "strategy": "sni-resolve", "ip": "127.0.0.2",
            "after": "log in (a flow's first step) [sni-resolve 127.0.0.2]",
        ]
        #expect(values(text, "probe_success", step) == ["1"])
        let plain = ["plan": "lab", "scenario": "HTTP, IP in the URL and the host in Host", "strategy": "header-only", "ip": "127.0.0.2"]
        #expect(values(text, "probe_success", plain) == ["1"])
        #expect(values(text, "probe_http_status_code", plain) == ["200"])
        #expect(values(text, "probe_http_version", plain) == ["1.1"])
        let failing = [
            "scenario": "SNI-only host without SNI (meant to fail: shows the diagnosis)", "strategy": "trust-override",
            "ip": "127.0.0.3",
        ]
        #expect(values(text, "probe_success", failing) == ["0"])
        #expect(values(text, "runner_result", failing.merging(["status": "error"]) { $1 }) == ["1"])
        #expect(values(text, "probe_http_status_code", failing) == ["0"])
        // The handshake failed on the name, yet the certificate was read: its expiry is known.
        #expect(values(text, "probe_ssl_earliest_cert_expiry", failing).count == 1)
        let degraded = ["scenario": "HTTPDNS unreachable, the built-in list takes over (reported as degraded)"]
        #expect(values(text, "runner_resolution_fallback", degraded) == ["1"])
        #expect(values(text, "probe_success", degraded) == ["1"])
        #expect(values(text, "runner_resolution_fallback", plain) == ["0"])
        // Every IP of `ips: all` its own series: h2 by ALPN, but the replica at .5 speaks HTTP/1.1 only.
        let fanOut = ["127.0.0.2", "127.0.0.5", "::1"].map { ip in
            values(text, "probe_http_version", ["scenario": "HTTPS with SNI, on every IP of the host", "ip": ip])
        }
        #expect(fanOut == [["2"], ["1.1"], ["2"]])
        #expect(values(text, "probe_http_duration_seconds", ["scenario": "HTTPS with SNI, on every IP of the host", "phase": "tls"])
            .allSatisfy { (Double($0) ?? 0) > 0 })
        // The system strategy pins nothing.
        #expect(values(text, "probe_success", ["strategy": "system", "ip": ""]) == ["1"])

        // The HTTPDNS services: the unreachable one failed (its fallback saved the result), the
        // others answered the lab's three addresses.
        #expect(values(text, "runner_httpdns_lookup_success", ["map": "unreachable", "host": "sni.lab.test"]) == ["0"])
        #expect(values(text, "runner_httpdns_answer_addresses", ["map": "unreachable"]) == ["0"])
        for map in ["tencent", "signed", "doh"] {
            #expect(values(text, "runner_httpdns_lookup_success", ["plan": "lab", "map": map, "host": "api.lab.test"]) == ["1"])
            #expect(values(text, "runner_httpdns_answer_addresses", ["map": map]) == ["3"])
        }
        #expect(values(text, "runner_cycles_total", [:]) == ["1"])
        #expect(values(text, "runner_config_last_reload_successful", [:]) == ["1"])
        #expect(values(text, "runner_build_info", ["version": "0.1.0"]) == ["1"])
        let ended = try #require(values(text, "runner_last_cycle_timestamp_seconds", [:]).first.flatMap(Double.init))
        #expect(abs(ended - Date().timeIntervalSince1970) < 120)
    }

    /// The same plan twice in one run: each copy's series stay apart (`plan` tells them apart).
    @Test func onePlanGivenTwiceKeepsItsSeriesApart() async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.temporaryDirectory().appendingPathComponent("runner.prom").path
        let arguments = cli.demoArguments(lab)
        let output = try await cli.runner([arguments[0]] + arguments + ["--metrics", path, "-q", "--tag", "http"])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let promtool = try await Exposition.promtool(text)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(text) == [])
        let plans = Set(Exposition.samples(text).compactMap { $0.labels.first { $0.name == "plan" }?.value })
        #expect(plans == ["lab (\(arguments[0]))", "lab (\(arguments[0])) #2"])
    }
}
