import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// Results that were retried (`retries`): flaky passes and results that never passed, in every
/// report, with each earlier attempt's problem kept and secrets still hidden.
@Suite struct RetryReportTests {
    static let timeout = TransferError(
        kind: .timeout, message: "timed out (timeout 1s) waiting for 203.0.113.10:443 with token \(Fixture.secret)")
    static let unavailable = Problem(subject: "status", expected: "2xx", actual: "503 (\(Fixture.secret))")

    static let flaky = ScenarioResult(
        scenario: "login", strategy: .sniResolve, ip: "203.0.113.10", tags: [], outcome: .passed,
        evidence: Fixture.passed.evidence, duration: .seconds(0.1),
        earlierAttempts: [
            Attempt(outcome: .failed([unavailable]), duration: .seconds(0.2)),
            Attempt(outcome: .errored(timeout), duration: .seconds(1.0)),
        ])

    static let neverPassed = ScenarioResult(
        scenario: "checkout", strategy: .headerOnly, ip: "203.0.113.11", tags: [],
        outcome: .failed([unavailable]), evidence: Fixture.failed.evidence, duration: .seconds(0.3),
        earlierAttempts: [Attempt(outcome: .errored(timeout), duration: .seconds(1.0))])

    static let run = RecordedRun(
        suites: [RecordedSuite(
            name: "retry", file: "retry.yaml", startedAt: Fixture.start, duration: .seconds(2), hostname: "h",
            properties: [], results: [flaky, neverPassed])],
        startedAt: Fixture.start, duration: .seconds(2))

    @Test func theModelTellsFlakyFromNeverPassed() {
        #expect(Self.flaky.isFlaky && Self.flaky.attemptCount == 3)
        #expect(!Self.neverPassed.isFlaky && Self.neverPassed.attemptCount == 2)
        #expect(Self.run.result.counts == OutcomeCounts(passed: 1, failed: 1))
    }

    @Test func junitMarksFlakyAndRerunAttemptsAndStaysSchemaValid() throws {
        let xml = try RenderedReport.junit(Self.run, redactor: Fixture.redactor)
        let check = try SchemaCheck.validate(xml)
        #expect(check.status == 0, "\(check.messages)")
        #expect(xml.contains("""
                <testcase name="login [sni-resolve 203.0.113.10]" classname="retry" time="0.100">
                  <flakyFailure type="expectation" message="attempt 1: status: expected 2xx, got 503 (***)">\
            status: expected 2xx, got 503 (***)</flakyFailure>
                  <flakyError type="timeout" message="attempt 2: timed out (timeout 1s) waiting for \
            203.0.113.10:443 with token ***">timed out (timeout 1s) waiting for 203.0.113.10:443 with token ***</flakyError>
                  <system-out>
            """))
        #expect(xml.contains("""
                  <failure type="expectation" message="status: expected 2xx, got 503 (***)">\
            status: expected 2xx, got 503 (***)</failure>
                  <rerunError type="timeout" message="attempt 1: timed out (timeout 1s) waiting for \
            203.0.113.10:443 with token ***">timed out (timeout 1s) waiting for 203.0.113.10:443 with token ***</rerunError>
            """))
        // A flaky pass counts as passed: Jenkins and GitLab show it green with the reruns.
        #expect(xml.contains("<testsuite name=\"retry\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\""))
        #expect(!xml.contains(Fixture.secret))
    }

    @Test func jsonCarriesTheFlagAndEachEarlierAttempt() throws {
        let data = try RenderedReport.json(Self.run, redactor: Fixture.redactor)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains(Fixture.secret))
        let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let suites = try #require(top["suites"] as? [[String: Any]])
        let results = try #require(suites.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["flaky"] as? Bool } == [true, false])
        let attempts = try #require(results[0]["earlier_attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["outcome"] as? String } == ["failed", "error"])
        #expect(attempts.map { $0["duration_ms"] as? Double } == [200, 1000])
        let problems = try #require(attempts[0]["problems"] as? [[String: String]])
        #expect(problems == [["subject": "status", "expected": "2xx", "actual": "503 (***)", "kind": "expectation"]])
        let error = try #require(attempts[1]["error"] as? [String: Any])
        #expect(error["type"] as? String == "timeout")
        #expect(attempts[0]["error"] is NSNull)
        #expect((results[1]["earlier_attempts"] as? [Any])?.count == 1)
    }

    @Test func theConsoleMarksFlakyAndCountsAttempts() {
        let plain = ConsoleFormatter(color: false, verbosity: .normal, redactor: Fixture.redactor)
        #expect(plain.line(for: Self.flaky) == "PASS  login [sni-resolve 203.0.113.10] [FLAKY]  200  h2  100 ms  passed on attempt 3")
        #expect(plain.line(for: Self.neverPassed)
            == "FAIL  checkout [header-only 203.0.113.11]  404  http/1.1  300 ms — status: expected 2xx, got 503 (***) (2 attempts)")
        let summary = plain.summary(for: Self.run)
        #expect(summary.contains("\nFLAKY: 1 result passed only on a retry\n"))
        let verbose = ConsoleFormatter(color: false, verbosity: .verbose, redactor: Fixture.redactor)
        let lines = verbose.line(for: Self.flaky)?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.contains("      attempt 1: FAIL — status: expected 2xx, got 503 (***)"))
        #expect(lines.contains("      attempt 2: ERROR — timeout: timed out (timeout 1s) waiting for 203.0.113.10:443 with token ***"))
    }
}
