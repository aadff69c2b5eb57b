import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

@Suite struct ConsoleFormatterTests {
    let plain = ConsoleFormatter(color: false, verbosity: .normal, redactor: Fixture.redactor)

    static let errorLine = """
        ERROR checkout [trust-override 203.0.113.12] — tls: TLS handshake with 203.0.113.12:443 failed: \
        certificate name mismatch (sent Authorization: Bearer ***)
              diagnosis: the server presents `default.lab.test` without SNI and `api.example.com` with it, \
        so this endpoint needs `sni-resolve`
        """

    @Test(arguments: [
        (Fixture.passed, "PASS  login over SNI [sni-resolve 203.0.113.10]  200  h2  123 ms"),
        (Fixture.failed,
         "FAIL  profile [header-only 203.0.113.11]  404  http/1.1  456 ms — status: expected 200, got 404 (+2 more)"),
        (Fixture.errored, errorLine),
        (Fixture.skipped, "SKIP  slow one [system] — not run: interrupted by SIGINT"),
        (Fixture.insecure, "PASS  legacy admin [sni-resolve 2001:db8::10] [INSECURE]  204  http/1.1  200 ms"),
    ])
    func oneLinePerResult(result: ScenarioResult, expected: String) {
        #expect(plain.line(for: result) == expected)
    }

    /// Degraded resolution shows on the line and in the summary even though the result passed.
    @Test func aFallbackIsMarkedOnTheLineAndInTheSummary() {
        var degraded = Fixture.passed
        degraded.evidence.resolutionFallbackFrom = "ali"
        #expect(plain.line(for: degraded) == "PASS  login over SNI [sni-resolve 203.0.113.10] [FALLBACK]  200  h2  123 ms")
        let run = RecordedRun(
            suites: [RecordedSuite(
                name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                results: [degraded, Fixture.passed])],
            startedAt: Fixture.start, duration: .seconds(1))
        #expect(plain.summary(for: run).contains(
            "FALLBACK: 1 result resolved through a fallback because an HTTPDNS service failed"))
    }

    @Test func quietShowsOnlyWhatDidNotPass() {
        let quiet = ConsoleFormatter(color: false, verbosity: .quiet, redactor: Fixture.redactor)
        #expect(quiet.line(for: Fixture.passed) == nil)
        #expect(quiet.line(for: Fixture.skipped) == nil)
        #expect(quiet.line(for: Fixture.insecure) == nil)
        #expect(quiet.line(for: Fixture.failed) == plain.line(for: Fixture.failed))
        #expect(quiet.line(for: Fixture.errored) == Self.errorLine)
    }

    @Test func colourOnlyWhenAsked() throws {
        let coloured = ConsoleFormatter(color: true, verbosity: .normal, redactor: Fixture.redactor)
        let pass = try #require(coloured.line(for: Fixture.passed))
        #expect(pass.hasPrefix("\u{1B}[32mPASS\u{1B}[0m  login over SNI"))
        #expect(try #require(coloured.line(for: Fixture.failed)).hasPrefix("\u{1B}[31mFAIL\u{1B}[0m  "))
        #expect(try #require(coloured.line(for: Fixture.errored)).hasPrefix("\u{1B}[31mERROR\u{1B}[0m "))
        #expect(try #require(coloured.line(for: Fixture.skipped)).hasPrefix("\u{1B}[33mSKIP\u{1B}[0m  "))
        #expect(try #require(coloured.line(for: Fixture.insecure)).contains(" \u{1B}[33m[INSECURE]\u{1B}[0m"))
        #expect(try #require(coloured.line(for: Fixture.errored)).contains("\u{1B}[2m      diagnosis: "))
        for result in [Fixture.passed, Fixture.failed, Fixture.errored, Fixture.skipped, Fixture.insecure] {
            #expect(plain.line(for: result)?.contains("\u{1B}") == false)
        }
    }

    @Test func hostileTextCannotDriveTheTerminal() throws {
        let line = try #require(plain.line(for: Fixture.hostileResult))
        #expect(!line.contains("\u{1B}"))
        #expect(!line.contains("\n"))
        #expect(!line.contains("\r"))
        #expect(line.hasPrefix("FAIL  weird <&\"'> \\u{0}\\u{7}\\u{1B}[31mred\\u{7F}\\u{85} 🚀👩‍💻 \\u{FFFE}\\u{FFFF} ]]> a\\r\\nb\\tc [sni-resolve 203.0.113.10]"))
    }

    @Test func verboseAddsEveryProblemAndTheEvidence() throws {
        let verbose = ConsoleFormatter(color: false, verbosity: .verbose, redactor: Fixture.redactor)
        let lines = try #require(verbose.line(for: Fixture.failed)).components(separatedBy: "\n")
        #expect(lines[0] == plain.line(for: Fixture.failed))
        #expect(Array(lines[1...3]) == [
            "      - status: expected 200, got 404",
            "      - header Content-Type: expected contains \"json\", got text/html",
            "      - header X-Echo-Authorization: expected absent, got Bearer ***",
        ])
        let evidence = EvidenceText.lines(for: Fixture.failed, redactor: Fixture.redactor)
        #expect(Array(lines[4...]) == evidence.map { "      " + $0 })
        #expect(lines.contains("      hop 2: GET http://api.example.com/v2/profile"))
        // A result that did not pass shows how to send each request again, the secret masked.
        #expect(lines.contains("        curl: curl -g -sS -i -H 'Host: api.example.com' 'http://203.0.113.11/profile?token=***'"))

        let insecure = try #require(verbose.line(for: Fixture.insecure)).components(separatedBy: "\n")
        #expect(insecure[1] == "      INSECURE: certificate verification was skipped (insecure: true)")
    }

    @Test func summaryEndsWithTheCountsLine() throws {
        let summary = plain.summary(for: Fixture.run(interruptedBy: 2))
        #expect(summary == """
            Not passing:
              FAIL  prod.eu: profile [header-only 203.0.113.11] — status: expected 200, got 404 (+2 more)
              ERROR prod.eu: checkout [trust-override 203.0.113.12] — tls: TLS handshake with 203.0.113.12:443 \
            failed: certificate name mismatch (sent Authorization: Bearer ***)
              FAIL  staging: \(PlainText.singleLine(Fixture.hostile)) [sni-resolve 203.0.113.10] — body contains: \
            expected <token> & ***, got \(PlainText.singleLine(Fixture.hostile)) (+1 more)
            INSECURE: 1 result skipped certificate verification (insecure: true)
            Interrupted by SIGINT: results that had not finished are marked skipped.
            Ran 6 results from 2 plans in 2.50 s
            2 passed, 2 failed, 1 errors, 1 skipped
            """)
    }

    /// A scenario that fanned out over IPs is one line in the summary, naming what did not
    /// pass; a scenario with one result keeps its own line.
    @Test func aFanOutIsOneLineNamingWhatDidNotPass() {
        let console = ConsoleReport(formatter: plain, plans: [PlanIdentity(name: "prod", file: "prod.yaml")]) { _ in }
        func result(_ ip: String, _ outcome: Outcome, strategy: StrategyKind = .sniResolve, scenario: String = "api-up") -> ScenarioResult {
            var result = Fixture.passed
            result.scenario = scenario
            result.ip = ip
            result.strategy = strategy
            result.outcome = outcome
            return result
        }
        let tls = Outcome.errored(TransferError(kind: .tls, message: "handshake failed"))
        let timeout = Outcome.errored(TransferError(kind: .timeout, message: "timed out"))
        let status = Outcome.failed([Problem(subject: "status", expected: "200", actual: "503")])
        // 50 IPs: 48 pass, one TLS error, one timeout; handed over out of order.
        var arrivals: [(ScenarioResult, ResultPosition)] = (0..<50).map { slot in
            let outcome: Outcome = slot == 7 ? tls : slot == 9 ? timeout : .passed
            return (result("10.0.0.\(slot)", outcome), ResultPosition(suite: 0, scenario: 0, slot: slot))
        }
        // A scenario over two strategies, and one with a single result.
        arrivals.append((result("10.0.1.1", status, strategy: .headerOnly, scenario: "both"), ResultPosition(suite: 0, scenario: 1, slot: 0)))
        arrivals.append((result("10.0.1.1", .passed, strategy: .trustOverride, scenario: "both"), ResultPosition(suite: 0, scenario: 1, slot: 1)))
        arrivals.append((result("10.0.2.1", status, scenario: "alone"), ResultPosition(suite: 0, scenario: 2, slot: 0)))
        for (result, position) in arrivals.reversed() { console.finished(result, at: position) }

        let run = RunResult(
            suites: [SuiteResult(
                plan: PlanIdentity(name: "prod", file: "prod.yaml"), startedAt: Fixture.start, duration: .seconds(1), hostname: "h",
                properties: [], counts: OutcomeCounts(passed: 49, failed: 2, errors: 2))],
            startedAt: Fixture.start, duration: .seconds(1))
        #expect(console.summary(for: run) == """
            Not passing:
              ERROR prod: api-up [sni-resolve] 48/50 IPs passed; failing: 10.0.0.7 tls, 10.0.0.9 timeout
              FAIL  prod: both 1/2 results passed; failing: header-only 10.0.1.1 status
              FAIL  prod: alone [sni-resolve 10.0.2.1] — status: expected 200, got 503
            Ran 53 results from 1 plan in 1.00 s
            49 passed, 2 failed, 2 errors
            """)
    }

    /// A group names at most ten results, then says how many more did not pass.
    @Test func aLargeGroupNamesTenAndCountsTheRest() throws {
        let console = ConsoleReport(formatter: plain, plans: [PlanIdentity(name: "p", file: "p.yaml")]) { _ in }
        for slot in 0..<25 {
            var result = Fixture.passed
            result.ip = "10.0.0.\(slot)"
            result.outcome = .errored(TransferError(kind: .connect, message: "refused"))
            console.finished(result, at: ResultPosition(suite: 0, scenario: 3, slot: slot))
        }
        let run = RunResult(
            suites: [SuiteResult(
                plan: PlanIdentity(name: "p", file: "p.yaml"), startedAt: Fixture.start, duration: .seconds(1), hostname: "h",
                properties: [], counts: OutcomeCounts(errors: 25))],
            startedAt: Fixture.start, duration: .seconds(1))
        let line = try #require(console.summary(for: run).components(separatedBy: "\n").dropFirst().first)
        let named = (0..<10).map { "10.0.0.\($0) connect" }.joined(separator: ", ")
        #expect(line == "  ERROR p: login over SNI [sni-resolve] 0/25 IPs passed; failing: \(named), and 15 more")
    }

    @Test func theLastLineIsNeverColoured() throws {
        let coloured = ConsoleFormatter(color: true, verbosity: .quiet, redactor: Fixture.redactor)
        let summary = coloured.summary(for: Fixture.run())
        #expect(summary.contains("\u{1B}["))
        let last = try #require(summary.components(separatedBy: "\n").last)
        #expect(last == "2 passed, 2 failed, 1 errors, 1 skipped")
    }

    @Test func anAllPassingRunSaysSoWithoutSkipped() {
        let run = RecordedRun(
            suites: [RecordedSuite(
                name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(0.25), hostname: "h",
                properties: [], results: [Fixture.passed])],
            startedAt: Fixture.start, duration: .seconds(0.25))
        #expect(plain.summary(for: run) == "Ran 1 result from 1 plan in 250 ms\n1 passed, 0 failed, 0 errors")
    }

    @Test func noSecretAppearsEvenVerbose() {
        let verbose = ConsoleFormatter(color: true, verbosity: .verbose, redactor: Fixture.redactor)
        let run = Fixture.run(interruptedBy: 15)
        var output = run.suites.flatMap(\.results).compactMap(verbose.line(for:))
        output.append(verbose.summary(for: run))
        let text = output.joined(separator: "\n")
        for secret in Fixture.forbidden {
            #expect(!text.contains(secret), "found \(secret)")
        }
        #expect(text.contains("key=***"))
        #expect(text.contains("?token=***"))
    }
}
