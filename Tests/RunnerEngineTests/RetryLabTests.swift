import Foundation
import LabTestSupport
import RunnerResults
import Testing

/// `retries`: a result that fails or errors runs again (same strategy and IP); one that then
/// passes is flaky, one that never does keeps every attempt's problem. The lab's `/flaky/KEY`
/// answers 503 to its first `fails` requests, so the server side proves how often it was asked.
@Suite("Retries", .timeLimit(.minutes(3)))
struct RetryLabTests {
    static func plan(_ scenarios: String, retries: Int? = nil) -> String {
        """
        version: 1
        name: retries
        defaults:
          ca: {{ca}}
          domains: lab
          timeout: 5s
        \(retries.map { "  retries: \($0)" } ?? "")
        domains:
          lab:
            static: {api.lab.test: [127.0.0.2]}
        scenarios:
        \(scenarios)
        """
    }

    static func key() -> String { UUID().uuidString }

    static func url(_ strategy: String, _ path: String) -> String {
        strategy == "header-only" ? "http://api.lab.test:{{http}}\(path)" : "https://api.lab.test:{{https}}\(path)"
    }

    @Test(arguments: ["header-only", "sni-resolve", "trust-override"])
    func aResultThatPassesOnARetryIsFlaky(strategy: String) async throws {
        let key = Self.key()
        let run = try await LabRun.make().run(Self.plan("""
              - name: recovers
                strategy: \(strategy)
                retries: 3
                request: {url: "\(Self.url(strategy, "/flaky/\(key)?fails=2"))"}
                expect: {status: 200, body: {json: {"$.attempt": 3}}}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.isFlaky)
        #expect(result.attemptCount == 3)
        for attempt in result.earlierAttempts {
            guard case .failed(let problems) = attempt.outcome else {
                Issue.record("expected a failed attempt, got \(attempt.outcome)")
                continue
            }
            #expect(problems.first?.description.hasPrefix("status: expected 200, got 503") == true)
        }
    }

    @Test func aResultThatNeverPassesKeepsEveryAttemptAndStopsAtTheLimit() async throws {
        let key = Self.key()
        let run = try await LabRun.make().run(Self.plan("""
              - name: stays down
                strategy: sni-resolve
                request: {url: "\(Self.url("sni-resolve", "/flaky/\(key)?fails=100"))"}
                expect: {status: 200}
              - name: then asks once more
                strategy: sni-resolve
                request: {url: "\(Self.url("sni-resolve", "/flaky/\(key)?fails=0"))"}
                expect: {body: {json: {"$.attempt": 4}}}
            """, retries: 2), jobs: 1)
        let down = try #require(run.all.first)
        #expect(down.problems.first?.description.hasPrefix("status: expected 200, got 503") == true)
        #expect(down.attemptCount == 3)
        #expect(!down.isFlaky)
        #expect(down.earlierAttempts.count == 2)
        // Three requests reached the lab for the first scenario, so the next one is the fourth.
        #expect(run.all.last?.passed == true, "\(run.all.last?.summary ?? "")")
    }

    @Test func anErroredAttemptIsRetriedAndRecordedAsAnError() async throws {
        let key = Self.key()
        let run = try await LabRun.make().run(Self.plan("""
              - name: slow then fine
                strategy: sni-resolve
                timeout: 4s
                retries: 1
                request: {url: "\(Self.url("sni-resolve", "/flaky/\(key)?fails=1&delay=20000"))"}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.isFlaky)
        let first = try #require(result.earlierAttempts.first)
        guard case .errored(let error) = first.outcome else {
            Issue.record("expected an errored first attempt, got \(first.outcome)")
            return
        }
        #expect(error.kind == .timeout)
        // The timeout leaves room for a TLS handshake on a loaded machine, and is far below the
        // lab's 20 s delay: the first attempt timed out rather than waiting for the slow answer,
        // and the retry (answered at once) passed without waiting either.
        #expect(first.duration < .seconds(10))
        #expect(result.duration < .seconds(10))
    }

    @Test func withoutRetriesAFailureIsFinal() async throws {
        let key = Self.key()
        let run = try await LabRun.make().run(Self.plan("""
              - name: once
                strategy: sni-resolve
                request: {url: "\(Self.url("sni-resolve", "/flaky/\(key)?fails=1"))"}
            """))
        let result = try #require(run.all.first)
        #expect(result.problems.count == 1)
        #expect(result.earlierAttempts.isEmpty)
    }

    @Test func theCommandLineOverridesThePlan() async throws {
        let key = Self.key()
        let run = try await LabRun.make().run(Self.plan("""
              - name: overridden
                strategy: sni-resolve
                retries: 0
                request: {url: "\(Self.url("sni-resolve", "/flaky/\(key)?fails=1"))"}
            """), retries: 1)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.isFlaky)
    }
}
