import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// The `runner` executable end to end: what it prints, what it writes, how it exits.
@Suite("runner command line", .timeLimit(.minutes(3)))
struct CLITests {
    /// The runner, with the lab's signing secret in its environment (the demo plan's signed map reads it).
    func runner(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutput {
        let lab = ["LAB_ALIBABA_SECRET": LabDNS.alibabaSecret]
        return try await PackageExecutable.run("runner", arguments, environment: lab.merging(environment) { $1 })
    }

    /// `plans/lab.yaml` pointed at the in-process lab.
    func demoArguments(_ lab: Lab) -> [String] {
        [
            Repository.root.appendingPathComponent("plans/lab.yaml").path,
            "--var", "http_port=\(lab.httpPort)", "--var", "https_port=\(lab.httpsPort)", "--var", "lab_ca=\(lab.caFile)",
            "--var", "dns_port=\(lab.dnsPort)",
            // A parallel run loads the machine (and the in-process lab) far more than `make demo`
            // does: a TLS handshake to the lab took over 5 s in 1 suite run of 4 with a core busy.
            "--var", "timeout=30s", "--var", "connect_timeout=10s", "--var", "lookup_timeout=10s", "--var", "time_limit=30s",
        ]
    }

    /// The runner's version, then the libraries it runs with, as the system's own tools name them.
    @Test func versionNamesTheRunnerAndTheLibrariesItRunsWith() async throws {
        let output = try await runner(["--version"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(output.stdout)")
        #expect(lines[0] == "runner 0.1.0")
        let curl = try await PackageExecutable.runTool("/usr/bin/curl-config", ["--version"])
        // `libcurl 7.88.1` from curl-config; `libcurl/7.88.1 OpenSSL/3.0.19 … nghttp2/1.52.0` from the library.
        #expect(lines[1].hasPrefix(curl.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: " ", with: "/") + " "))
        #expect(lines[1].contains("OpenSSL/") && lines[1].contains("nghttp2/"), "\(lines[1])")
        let openssl = try await PackageExecutable.runTool("/usr/bin/openssl", ["version"])
        // `OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)`: the library's part.
        #expect(openssl.stdout.contains("Library: \(lines[2])") || openssl.stdout.hasPrefix(lines[2]), "\(openssl.stdout) vs \(lines[2])")
        let yaml = try await PackageExecutable.runTool("/usr/bin/pkg-config", ["--modversion", "yaml-0.1"])
        #expect(lines[3] == "libyaml/" + yaml.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func noPlanIsAnInvalidCommandLine() async throws {
        let output = try await runner([])
        #expect(output.status == 2)
        #expect(output.stderr.contains("give at least one plan file"))
    }

    @Test(arguments: [
        (["--jobs", "0", "p.yaml"], "--jobs takes a number from 1 to 1024, got 0"),
        (["--strategy", "sni", "p.yaml"], "--strategy takes one of header-only, trust-override, sni-resolve, system, auto, got 'sni'"),
        (["--var", "novalue", "p.yaml"], "--var takes NAME=VALUE, got 'novalue'"),
        (["-q", "-v", "p.yaml"], "--quiet and --verbose exclude each other"),
        (["--retries", "11", "p.yaml"], "--retries takes a number from 0 to 10, got 11"),
        (["--junit", "/nonexistent/dir/j.xml", "p.yaml"], "cannot write report '/nonexistent/dir/j.xml': directory '/nonexistent' does not exist"),
        (["--html", "/nonexistent/dir/r.html", "p.yaml"], "cannot write report '/nonexistent/dir/r.html': directory '/nonexistent' does not exist"),
        (["--metrics", "/nonexistent/dir/m.prom", "p.yaml"], "cannot write report '/nonexistent/dir/m.prom': directory '/nonexistent' does not exist"),
        (["--bogus", "p.yaml"], "Unknown option '--bogus'"),
    ])
    func invalidOptionsExitTwo(arguments: [String], message: String) async throws {
        let output = try await runner(arguments)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func checkValidatesTheDemoPlan() async throws {
        let lab = try await SharedLab.get()
        let output = try await runner(["check"] + demoArguments(lab))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasSuffix("lab.yaml: ok (14 scenarios)\n"), "\(output.stdout)")
    }

    @Test func checkReportsEveryPlanErrorAndExitsTwo() async throws {
        let directory = try LabPlans.temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.yaml")
        try "version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://x.test/'}\n    expct: {status: 200}\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let output = try await runner(["check", bad.path])
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("\(bad.path):5:5: error: unknown key 'expct' in scenario 'a'; did you mean 'expect'?\n"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        // Nothing runs when any plan has an error, whatever the others say.
        let run = try await runner([bad.path])
        #expect(run.status == 2)
    }

    /// `--filter` chooses the flow's second step; its login runs first, marked as a predecessor,
    /// and the step's line names the result it ran after.
    @Test func aFilteredStepBringsItsLogin() async throws {
        let lab = try await SharedLab.get()
        let output = try await runner(demoArguments(lab) + ["--filter", "use the session", "--color", "never"])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS") && $0.contains(" log in (a flow's first step) [sni-resolve 127.0.0.2] [PREDECESSOR]") }, "\(output.stdout)")
        #expect(lines.contains {
            $0.hasPrefix("PASS")
                && $0.contains(" use the session on the login's server [sni-resolve 127.0.0.2] after log in (a flow's first step) [sni-resolve 127.0.0.2]")
        }, "\(output.stdout)")
        #expect(lines.last == "2 passed, 0 failed, 0 errors")
    }

    /// The demo plan: every strategy passes, trust override against the SNI-only host errors
    /// with its diagnosis, exit 1, and the JUnit validates against the repository's schema.
    @Test func theDemoPlanRunsAndItsJUnitValidates() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let junit = directory.appendingPathComponent("junit.xml").path
        let json = directory.appendingPathComponent("report.json").path
        let output = try await runner(demoArguments(lab) + ["--junit", junit, "--json", json])
        #expect(output.status == 1, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.dropLast().last == "20 passed, 0 failed, 1 errors", "\(output.stdout)")
        #expect(output.stdout.contains("so this endpoint needs sni-resolve"))

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<error type=\"tls\""))
        #expect(xml.contains("SNI-only host without SNI (meant to fail: shows the diagnosis) [trust-override 127.0.0.3]"))
        let validation = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, junit])
        #expect(validation.status == 0, "\(validation.stderr)")
        #expect(FileManager.default.fileExists(atPath: json))
    }

    @Test func tagAndFilterSelectScenarios() async throws {
        let lab = try await SharedLab.get()
        let tagged = try await runner(demoArguments(lab) + ["--tag", "baseline", "--tag", "post"])
        #expect(tagged.status == 0, "\(tagged.stdout)")
        #expect(tagged.stdout.hasSuffix("3 passed, 0 failed, 0 errors\n"), "\(tagged.stdout)")
        let filtered = try await runner(demoArguments(lab) + ["--filter", "SNI-only host, reached"])
        #expect(filtered.status == 0)
        #expect(filtered.stdout.contains("PASS  SNI-only host, reached with SNI [sni-resolve 127.0.0.3]"), "\(filtered.stdout)")
        #expect(filtered.stdout.hasSuffix("1 passed, 0 failed, 0 errors\n"))
        let none = try await runner(demoArguments(lab) + ["--tag", "no-such-tag"])
        #expect(none.status == 2)
        #expect(none.stderr == "error: no scenario matches the --tag/--filter given\n")
    }

    @Test func strategyOverridesEveryScenario() async throws {
        let lab = try await SharedLab.get()
        let sni = try await runner(demoArguments(lab) + ["--tag", "https", "--strategy", "sni-resolve"])
        // The SNI-only host now passes: the override gave it the strategy it needs; the scenario
        // that expects no SNI now sees one, and says so.
        #expect(sni.status == 1, "\(sni.stdout)")
        #expect(sni.stdout.contains("PASS  SNI-only host without SNI (meant to fail: shows the diagnosis) [sni-resolve 127.0.0.3]"))
        #expect(sni.stdout.contains("body json $.sni: expected null, got \"api.lab.test\""))
        #expect(sni.stdout.hasSuffix("12 passed, 1 failed, 0 errors\n"), "\(sni.stdout)")
        #expect(!sni.stdout.contains("trust-override"))
        let wrong = try await runner(demoArguments(lab) + ["--strategy", "header-only"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--strategy header-only: scenario 'SNI-only host, reached with SNI' ("), "\(wrong.stderr)")
        #expect(wrong.stdout.isEmpty)
    }

    /// `--stats`: sequential requests to one identity share one connection, and every file
    /// the run opened (sockets, shares, the multi handle) is closed when it ends.
    @Test func statsShowConnectionReuseAndNoLeakedDescriptors() async throws {
        let lab = try await SharedLab.get()
        var yaml = """
            version: 1
            defaults: {ca: "{{ca}}", domains: lab}
            domains: {lab: {static: {api.lab.test: [127.0.0.2, 127.0.0.5]}}}
            scenarios:

            """
        for index in 0..<20 {
            yaml += """
                  - name: get \(index)
                    strategy: [sni-resolve, trust-override]
                    ips: all
                    request: {url: "https://api.lab.test:{{https}}/status/200"}

                """
        }
        let plan = try LabPlans.write(yaml, lab: lab)
        let output = try await runner([plan, "-q", "--jobs", "1", "--stats"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        // Four identities (two strategies × two IPs): one connection each, reused 19 times.
        let stats = try #require(output.stderr.split(separator: "\n").last.map(String.init))
        #expect(stats.hasPrefix("stats: 80 results, 4 connections opened, peak RSS "), "\(stats)")
        let descriptors = stats.components(separatedBy: "open sockets and files ").last ?? ""
        let counts = descriptors.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] == counts[1], "file descriptors not back where they started: \(stats)")
    }

    @Test func quietPrintsOnlyProblemsAndTheSummary() async throws {
        let lab = try await SharedLab.get()
        let output = try await runner(demoArguments(lab) + ["-q"])
        #expect(output.status == 1)
        #expect(!output.stdout.contains("PASS"))
        #expect(output.stdout.contains("ERROR SNI-only host without SNI"))
        #expect(output.stdout.hasSuffix("20 passed, 0 failed, 1 errors\n"))
    }

    /// Also `json_exists` end to end: the echo's keys are there whatever their values (`sni` is
    /// null without SNI), and a key it never sends fails on its own.
    @Test func aFailedExpectationExitsOne() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: lab}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - name: wrong status
                request: {url: "https://api.lab.test:{{https}}/status/503"}
                expect: {status: 200}
              - name: the echo's keys are there
                strategy: trust-override
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {body: {json_exists: [$.sni, $.connection_id, "$.headers['host']"]}}
              - name: a key the echo never sends
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {body: {json_exists: [$.host, $.token]}}
            """, lab: lab)
        let output = try await runner([plan])
        #expect(output.status == 1)
        #expect(output.stdout.hasSuffix("1 passed, 2 failed, 0 errors\n"), "\(output.stdout)")
        #expect(output.stdout.contains("status: expected 200, got 503"))
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS") && $0.contains("the echo's keys are there") }, "\(output.stdout)")
        #expect(lines.contains { $0.hasPrefix("FAIL") && $0.contains("a key the echo never sends") }, "\(output.stdout)")
        #expect(output.stdout.contains("body json $.token: expected exists, got no such path"), "\(output.stdout)")
        #expect(!output.stdout.contains("body json $.host"), "\(output.stdout)")
    }

    /// The body's SHA-256 is computed only for what shows or checks it: a run with no report
    /// and no --verbose leaves it out, yet a `body: {sha256: …}` expectation is still checked
    /// (right and wrong), and --json records every body's digest.
    @Test func aBodyDigestIsComputedWhereAnOutputOrAnExpectationReadsIt() async throws {
        let lab = try await SharedLab.get()
        // /bytes/3 is 00 01 02.
        let digest = "ae4b3280e56e2faf83f414a6e3dabe9d5fbe18976544c05fed121accb85b53fc"
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: lab, strategy: sni-resolve}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - {name: right digest, request: {url: "https://api.lab.test:{{https}}/bytes/3"}, expect: {body: {sha256: "\(digest)"}}}
              - {name: wrong digest, request: {url: "https://api.lab.test:{{https}}/bytes/3"}, expect: {body: {sha256: "\(String(repeating: "0", count: 64))"}}}
              - {name: no digest asked, request: {url: "https://api.lab.test:{{https}}/bytes/3"}, expect: {status: 200}}
            """, lab: lab)
        let quiet = try await runner([plan, "-q", "--color", "never"])
        #expect(quiet.status == 1, "\(quiet.stdout)\(quiet.stderr)")
        #expect(quiet.stdout.contains("FAIL  wrong digest"), "\(quiet.stdout)")
        #expect(quiet.stdout.hasSuffix("2 passed, 1 failed, 0 errors\n"), "\(quiet.stdout)")

        let json = try LabPlans.temporaryDirectory().appendingPathComponent("report.json").path
        let reported = try await runner([plan, "-q", "--json", json])
        #expect(reported.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let suites = try #require(report["suites"] as? [[String: Any]])
        let results = try #require(suites.first?["results"] as? [[String: Any]])
        let digests = results.compactMap { (($0["evidence"] as? [String: Any])?["hops"] as? [[String: Any]])?.first?["body_sha256"] as? String }
        #expect(digests == [digest, digest, digest], "every hop's digest, asked for or not: \(results)")
    }

    /// `--retries`: a result that passes on a retry passes (exit 0), is marked flaky on the
    /// console, and the JUnit carries the earlier attempt as `<flakyFailure>`, schema-valid.
    @Test func retriesFromTheCommandLineMakeAFlakyPass() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: lab}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - name: recovers
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/flaky/\(UUID().uuidString)?fails=1"}
                expect: {status: 200}
            """, lab: lab)
        let junit = try LabPlans.temporaryDirectory().appendingPathComponent("junit.xml").path
        let output = try await runner([plan, "--retries", "2", "--junit", junit, "--color", "never"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("PASS  recovers [sni-resolve 127.0.0.2] [FLAKY]  200"), "\(output.stdout)")
        #expect(output.stdout.contains("passed on attempt 2\n"))
        #expect(output.stdout.contains("\nFLAKY: 1 result passed only on a retry\n"))
        #expect(output.stdout.hasSuffix("1 passed, 0 failed, 0 errors\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<flakyFailure type=\"expectation\" message=\"attempt 1: status: expected 200, got 503"), "\(xml)")
        let validation = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, junit])
        #expect(validation.status == 0, "\(validation.stderr)")
    }
}

extension PackageExecutable {
    /// Runs a system tool (not one of this package's executables); `environment` is added to
    /// the test process's own.
    static func runTool(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        deadline: Duration = .seconds(120)
    ) async throws -> ProcessOutput {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await offPool {
            let output = try ChildProcess.run(
                URL(fileURLWithPath: path), arguments, environment: merged, directory: directory, deadline: deadline)
            return ProcessOutput(
                status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                stderr: String(decoding: output.stderr, as: UTF8.self))
        }
    }
}

@Suite("runner interrupted", .timeLimit(.minutes(3)))
struct InterruptTests {
    /// SIGTERM mid-run: in-flight transfers are aborted, the reports are still written (and
    /// valid) with what had not finished marked skipped, and the exit status is 143.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalStopsTheRunAndTheReportsAreStillWritten(signal: Int32, status: Int32) async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: lab, timeout: 30s}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - name: quick
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: slow one
                request: {url: "https://api.lab.test:{{https}}/delay/20000"}
              - name: slow two
                request: {url: "https://api.lab.test:{{https}}/delay/20000"}
            """, lab: lab)
        let directory = try LabPlans.temporaryDirectory()
        let junit = directory.appendingPathComponent("junit.xml").path
        let html = directory.appendingPathComponent("report.html").path
        let started = Date()
        // The signal goes once the quick result is in: the two slow ones are in flight then.
        let output = try await PackageExecutable.run(
            "runner", [plan, "--junit", junit, "--html", html], environment: ["NO_COLOR": "1"],
            signal: ChildProcess.Signal(signal, .whenStdoutContains("PASS  quick")))
        // Far below the slow requests' 20 s: the signal aborted them.
        #expect(Date().timeIntervalSince(started) < 15, "the run did not stop promptly")
        #expect(output.status == status, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.hasSuffix("1 passed, 0 failed, 0 errors, 2 skipped\n"), "\(output.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<skipped message=\"interrupted\"").count == 3, "\(xml)")
        let validation = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, junit])
        #expect(validation.status == 0, "\(validation.stderr)")
        // The HTML report too, the same results: the page is whole, its matrix shows them.
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasSuffix("</html>\n"))
        #expect(page.components(separatedBy: "<a class=\"cell skipped\"").count == 3, "\(page)")
        #expect(page.contains("<strong>interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")</strong>"))
    }
}

@Suite("runner check on malformed plans", .timeLimit(.minutes(3)))
struct MalformedPlanCLITests {
    /// The parser's table of malformed plans, through the real command: the exact error on
    /// stderr, nothing on stdout, exit 2.
    @Test(arguments: malformedPlans)
    func checkPrintsTheErrorAndExitsTwo(_ plan: MalformedPlan) async throws {
        let workspace = try PlanWorkspace()
        let (path, expected) = try plan.write(into: workspace)
        // HOME as the in-process test sets it: the auth plans read `${secret:HOME}`.
        let output = try await PackageExecutable.run("runner", ["check", path], environment: ["HOME": "/root"])
        #expect(output.status == 2)
        #expect(output.stderr.split(separator: "\n").first.map(String.init) == expected, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }
}

@Suite("runner interrupted during resolution", .timeLimit(.minutes(3)))
struct InterruptDuringLookupTests {
    /// Interrupted while an HTTPDNS lookup hangs: the result did not finish, so it is skipped
    /// (not a resolve error the service would be blamed for).
    @Test func aSignalDuringAnHTTPDNSLookupSkipsTheResult() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: dns, timeout: 30s}
            domains:
              lab: {static: {api.lab.test: [127.0.0.2]}}
              dns:
                httpdns: {format: doh-json, url: "http://127.0.0.2:{{http}}/httpdns/doh/resolve?name={host}", timeout: 30s}
            scenarios:
              - name: answers at once
                strategy: header-only
                domains: lab
                request: {url: "http://api.lab.test:{{http}}/echo"}
              - name: waits on the lookup
                strategy: header-only
                request: {url: "http://hang.lab.test:{{http}}/echo"}
            """, lab: lab)
        // The lookup hangs for 30 s. The signal comes once the first result has passed (so the
        // runner is running, its handlers in place, however slowly it started): with --jobs 1 the
        // second result is then waiting on its lookup, unfinished.
        let output = try await PackageExecutable.run(
            "runner", [plan, "--jobs", "1"], signal: ChildProcess.Signal(SIGTERM, .whenStdoutContains("PASS  answers at once")))
        #expect(output.status == 143, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.hasSuffix("1 passed, 0 failed, 0 errors, 1 skipped\n"), "\(output.stdout)")
    }
}
