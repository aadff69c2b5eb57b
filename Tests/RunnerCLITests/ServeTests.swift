import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `runner serve` from outside, as Prometheus and an operator meet it: the latest cycle over
/// HTTP, HTTPDNS answers kept across cycles, SIGHUP with a broken plan, SIGTERM, a port in use.
@Suite("runner serve", .timeLimit(.minutes(3)))
struct ServeTests {
    /// A `runner serve` child: its standard error read as it comes, its port once it says it.
    final class Serve: @unchecked Sendable {
        let child: RunningChild
        private let output: ChildOutput

        /// - Parameter descriptorLimit: run it under `ulimit -n` of this (soft and hard), through `/bin/sh`.
        init(_ arguments: [String], temporaryDirectory: URL? = nil, descriptorLimit: Int? = nil) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = "1"
            if let temporaryDirectory { environment["TMPDIR"] = temporaryDirectory.path }
            let runner = PackageExecutable.url("runner")
            if let descriptorLimit {
                child = try RunningChild(
                    URL(fileURLWithPath: "/bin/sh"),
                    ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", runner.path, "serve"] + arguments,
                    environment: environment)
            } else {
                child = try RunningChild(runner, ["serve"] + arguments, environment: environment)
            }
            output = ChildOutput(child.stderr)
        }

        var stderr: String { output.text() }

        /// Waits until standard error holds `text` `times` times; fails with what it holds.
        func waitFor(_ text: String, times: Int = 1, within seconds: Double = 30) async throws {
            let deadline = Date().addingTimeInterval(seconds)
            while stderr.components(separatedBy: text).count - 1 < times {
                guard Date() < deadline, child.isRunning else {
                    Issue.record("no '\(text)' (\(times)×) within \(seconds) s; stderr:\n\(stderr)")
                    throw CancellationError()
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }

        /// The port from `serve: listening on http://127.0.0.1:PORT/metrics`.
        func port() async throws -> Int {
            try await waitFor("listening on http://127.0.0.1:")
            let tail = stderr.components(separatedBy: "listening on http://127.0.0.1:")[1]
            return try #require(Int(tail.prefix { $0.isNumber }))
        }

        /// Stops it with `signal`; how it ended and how long that took.
        func stop(_ signal: Int32 = SIGTERM) -> (termination: ChildProcess.Termination?, seconds: Double) {
            let sent = Date()
            child.send(signal)
            let termination = child.wait(deadline: .seconds(10))
            if termination == nil { child.send(SIGKILL) }
            return (termination, Date().timeIntervalSince(sent))
        }
    }

    /// `curl` for one request: the status and the body.
    static func request(_ port: Int, _ path: String, method: String = "GET") async throws -> (status: Int, body: String) {
        let output = try await PackageExecutable.runTool(
            "/usr/bin/curl",
            ["-s", "-X", method, "--max-time", "10", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
        var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    static func plan(extra: String = "") -> String {
        """
        version: 1
        name: monitor
        defaults: {timeout: 15s, ca: {{ca}}, domains: dns}
        domains:
          dns:
            httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1", timeout: 15s}
        scenarios:
          - name: api passes
            strategy: sni-resolve
            request: {url: "https://api.lab.test:{{https}}/echo"}
          - name: api fails its status check
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/status/503"}
            expect: {status: 200}
        \(extra)
        """
    }

    @Test("serves the latest cycle, keeps HTTPDNS answers across cycles, stops on SIGTERM with exit 0")
    func servesAndStops() async throws {
        let lab = try await Lab.start()
        let path = try LabPlans.write(Self.plan(), lab: lab)
        let scratch = try LabPlans.temporaryDirectory()
        let copy = try LabPlans.temporaryDirectory().appendingPathComponent("report.html").path
        let serve = try Serve(
            [path, "--every", "300ms", "--listen", "127.0.0.1:0", "--label", "vantage=lab", "--html", copy],
            temporaryDirectory: scratch)
        let port = try await serve.port()
        try await serve.waitFor("serve: cycle 3 done")
        // `--html`: each cycle's page, replaced whole.
        #expect(try String(contentsOfFile: copy, encoding: .utf8).hasSuffix("</html>\n"))
        #expect(serve.stderr.contains("serve: cycle 1 done in "), "\(serve.stderr)")
        #expect(serve.stderr.contains(": 1 passed, 1 failed, 0 errors"), "\(serve.stderr)")

        #expect(try await Self.request(port, "/-/healthy") == (200, "Healthy.\n"))
        #expect(try await Self.request(port, "/-/ready") == (200, "Ready.\n"))
        let report = try await Self.request(port, "/report.json")
        #expect(report.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(report.body.utf8)) as? [String: Any])
        let results = try #require((document["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { "\($0["scenario"] ?? "")=\($0["outcome"] ?? "")" }
            == ["api passes=passed", "api fails its status check=failed"])
        let page = try await Self.request(port, "/report.html")
        #expect(page.status == 200 && page.body.hasPrefix("<!DOCTYPE html>"), "\(page.body.prefix(200))")
        #expect(page.body.contains(#"<a class="cell passed""#) && page.body.contains(#"<a class="cell failed""#))
        let junit = try await Self.request(port, "/junit.xml")
        #expect(junit.status == 200 && junit.body.contains("<testsuites"), "\(junit.body.prefix(200))")
        let metrics = try await Self.request(port, "/metrics")
        #expect(metrics.status == 200)
        let labels = #"plan="monitor",scenario="api passes",strategy="sni-resolve",ip="127.0.0.2",vantage="lab""#
        #expect(metrics.body.contains("probe_success{\(labels)} 1\n"), "\(metrics.body.prefix(2000))")
        #expect(metrics.body.contains(#"probe_success{plan="monitor",scenario="api fails its status check",strategy="header-only",ip="127.0.0.2",vantage="lab"} 0"#))
        #expect(metrics.body.contains(#"probe_http_status_code{plan="monitor",scenario="api fails its status check",strategy="header-only",ip="127.0.0.2",vantage="lab"} 503"#))
        #expect(metrics.body.contains(#"runner_config_last_reload_successful{vantage="lab"} 1"#), "\(metrics.body.suffix(1500))")
        let promtool = try await Exposition.promtool(metrics.body)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(metrics.body) == [])
        #expect(try await Self.request(port, "/nothing-here").status == 404)
        #expect(try await Self.request(port, "/report.json", method: "POST").status == 405)

        // Three cycles or more, one lookup: the answer (TTL 60 s) was kept, as an app keeps it.
        #expect(lab.httpdnsLookups(host: "api.lab.test") == 1)

        let (termination, seconds) = serve.stop(SIGTERM)
        #expect(termination == .exited(0), "\(serve.stderr)")
        #expect(seconds < 2, "stopped \(seconds) s after SIGTERM")
        #expect(serve.stderr.hasSuffix("serve: stopped\n"), "\(serve.stderr)")
        // Its scratch folder for the cycles' reports is gone with it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        try await lab.shutdown()
    }

    @Test("SIGHUP: a broken plan keeps the running ones and says where it is broken; a good one replaces them")
    func reload() async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.write(Self.plan(), lab: lab)
        let serve = try Serve([path, "--every", "200ms", "--listen", "127.0.0.1:0"])
        let port = try await serve.port()
        try await serve.waitFor("serve: cycle 1 done")
        #expect(try await Self.request(port, "/metrics").body.contains("runner_config_last_reload_successful 1\n"))

        try LabPlans.fill(Self.plan(extra: "  - name: broken\n    request: {url: 'https://x.test/'}\n    expct: {status: 200}"), lab: lab)
            .write(toFile: path, atomically: true, encoding: .utf8)
        serve.child.send(SIGHUP)
        try await serve.waitFor("serve: reload failed")
        #expect(try await Self.request(port, "/metrics").body.contains("runner_config_last_reload_successful 0\n"))
        #expect(serve.stderr.contains("\(path):17:5: error: unknown key 'expct' in scenario 'broken'"), "\(serve.stderr)")
        let cycles = serve.stderr.components(separatedBy: "serve: cycle ").count - 1
        try await serve.waitFor("serve: cycle ", times: cycles + 1)
        #expect(serve.stderr.hasSuffix(": 1 passed, 1 failed, 0 errors\n"), "the running plan went on: \(serve.stderr)")

        try LabPlans.fill(Self.plan(extra: "  - name: another\n    strategy: header-only\n    request: {url: 'http://api.lab.test:{{http}}/echo'}"), lab: lab)
            .write(toFile: path, atomically: true, encoding: .utf8)
        serve.child.send(SIGHUP)
        try await serve.waitFor("serve: reloaded 1 plan")
        try await serve.waitFor(": 2 passed, 1 failed, 0 errors")
        #expect(try await Self.request(port, "/metrics").body.contains("runner_config_last_reload_successful 1\n"))
        #expect(serve.stop().termination == .exited(0))
    }

    @Test("a port in use is a clear error, exit 2")
    func portInUse() async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.write(Self.plan(), lab: lab)
        let first = try Serve([path, "--every", "1m", "--listen", "127.0.0.1:0"])
        let port = try await first.port()
        let second = try await PackageExecutable.run("runner", ["serve", path, "--listen", "127.0.0.1:\(port)"], deadline: .seconds(30))
        #expect(second.status == 2)
        #expect(second.stderr.hasPrefix("error: cannot listen on 127.0.0.1:\(port): "), "\(second.stderr)")
        #expect(second.stderr.contains("Address already in use"), "\(second.stderr)")
        #expect(first.stop().termination == .exited(0))
    }

    /// `--state`: what one serve recorded, the next one started on the same file checks as
    /// retained once the service has moved the network elsewhere.
    @Test func theStateFileOutlivesARestart() async throws {
        let lab = try await SharedLab.get()
        let plan = """
            version: 1
            name: restarted
            vars: {network: 120.196.0.1}
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip=${network}", retain: 1h}
            scenarios:
              - {name: api, domains: tencent, request: {url: "https://api.lab.test:{{https}}/echo"}}
            """
        let path = try LabPlans.write(plan, lab: lab)
        let state = try LabPlans.temporaryDirectory().appendingPathComponent("serve-state.db").path
        let first = try Serve([path, "--every", "1m", "--listen", "127.0.0.1:0", "--state", state])
        _ = try await first.port()
        try await first.waitFor("serve: cycle 1 done")
        #expect(first.stop().termination == .exited(0))

        // The service now sends this network to 127.0.0.5: 127.0.0.2 is retained from the first serve.
        let second = try Serve([path, "--every", "1m", "--listen", "127.0.0.1:0", "--state", state, "--var", "network=101.80.0.1"])
        let port = try await second.port()
        try await second.waitFor("serve: cycle 1 done")
        let report = try await Self.request(port, "/report.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(report.body.utf8)) as? [String: Any])
        let results = try #require((document["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let shown = results.map { result -> String in
            let retained = (result["evidence"] as? [String: Any])?["retained"] as? [String: Any]
            return "\(result["ip"] as? String ?? "-") \(retained == nil ? "current" : "retained") \(result["outcome"] as? String ?? "?")"
        }
        #expect(shown == ["127.0.0.5 current passed", "127.0.0.2 retained passed"], "\(results)")
        let metrics = try await Self.request(port, "/metrics")
        #expect(metrics.body.contains("runner_address_retained{plan=\"restarted\",scenario=\"api\",strategy=\"sni-resolve\",ip=\"127.0.0.2\"} 1\n"),
            "\(metrics.body.prefix(3000))")
        #expect(second.stop().termination == .exited(0))
    }

    @Test("bad options are refused before anything starts", arguments: [
        (["--every", "soon"], "--every"),
        (["--label", "vantage"], "--label: invalid label 'vantage': expected NAME=VALUE"),
        (["--label", "ip=1.2.3.4"], "--label: invalid label 'ip=1.2.3.4': 'ip' cannot be used: the runner sets it itself"),
        (["--label", "9x=1"], "a label name starts with a letter"),
        (["--label", "a=1", "--label", "a=2"], "'a' is given twice"),
        (["--listen", "localhost"], "--listen"),
        (["--max-connections", "0"], "--max-connections takes a number from 1 to 65536, got 0"),
        (["--max-connections", "70000"], "--max-connections takes a number from 1 to 65536, got 70000"),
        (["--request-timeout", "soon"], "--request-timeout"),
        (["--idle-timeout", "0s"], "--idle-timeout"),
        (["--request-timeout", "61m"], "--request-timeout takes a duration up to 60m, got 61m"),
    ])
    func badOptions(arguments: [String], fragment: String) async throws {
        let lab = try await SharedLab.get()
        let path = try LabPlans.write(Self.plan(), lab: lab)
        let output = try await PackageExecutable.run("runner", ["serve", path] + arguments, deadline: .seconds(30))
        #expect(output.status == 2)
        #expect(output.stderr.contains(fragment), "\(output.stderr)")
    }
}
