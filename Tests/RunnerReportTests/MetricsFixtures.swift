import Foundation
import RunnerResults
import RunnerVocabulary

/// A run made for the metrics: each probe value worked out by hand in the expected
/// exposition, a flaky pass through a fallback, a scenario name with every character the
/// format escapes and a secret, and two HTTPDNS lookups.
enum MetricsFixture {
    /// `say "hi" \ to` a newline, `line two` and the secret.
    static let hostileName = "say \"hi\" \\ to\nline two \(Fixture.secret)"

    static func run() -> RecordedRun {
        RecordedRun(suites: [suite], startedAt: Fixture.start, duration: .seconds(2.5))
    }

    static let suite = RecordedSuite(
        name: "prod", file: "plans/prod.yaml", startedAt: Fixture.start, duration: .seconds(2.4), hostname: "ci-01",
        properties: [], results: [Fixture.passed, Fixture.failed, Fixture.errored, Fixture.skipped, flaky, hostile],
        httpdnsLookups: [
            HTTPDNSLookupResult(map: "ali", host: "api.example.com", succeeded: false, duration: .seconds(1.5), addressCount: 0),
            HTTPDNSLookupResult(map: "tencent", host: "api.example.com", succeeded: true, duration: .seconds(0.0123), addressCount: 2),
        ])

    /// Passed on its second attempt, its IP from map `ali`'s fallback.
    static let flaky: ScenarioResult = {
        var evidence = Evidence(
            strategy: .sniResolve, ipSource: "static map 'builtin' (fallback for 'ali')", insecure: false,
            hops: [{
                var hop = HopEvidence(
                    method: "GET", originalURL: "https://api.example.com/health", urlSent: "https://api.example.com/health",
                    hostHeader: "api.example.com", sni: "api.example.com", pinnedIP: "2001:db8::10", strategy: .sniResolve,
                    timings: Timings(resolve: .seconds(0), connect: .seconds(0.0005), tls: .seconds(0.002), firstByte: .seconds(0.01), total: .seconds(0.0105)))
                hop.httpVersion = "1.1"
                hop.status = 204
                return hop
            }()])
        evidence.resolutionFallbackFrom = "ali"
        return ScenarioResult(
            scenario: "health", strategy: .sniResolve, ip: "2001:db8::10", tags: [], outcome: .passed, evidence: evidence,
            duration: .seconds(0.0105),
            earlierAttempts: [Attempt(outcome: .failed([Problem(subject: "status", expected: "204", actual: "503")]), duration: .seconds(0.2))])
    }()

    /// Failed, under `system` (no IP), with a name that needs every escape.
    static let hostile = ScenarioResult(
        scenario: hostileName, strategy: .system, ip: nil, tags: [],
        outcome: .failed([Problem(subject: "status", expected: "200", actual: "500")]),
        evidence: Evidence(
            strategy: .system, ipSource: "system resolver", insecure: false,
            hops: [{
                var hop = HopEvidence(
                    method: "GET", originalURL: "http://api.example.com/", urlSent: "http://api.example.com/",
                    hostHeader: "api.example.com", sni: nil, pinnedIP: nil, strategy: .system, timings: Timings(firstByte: .seconds(0.004), total: .seconds(0.005)))
                hop.httpVersion = "1.1"
                hop.status = 500
                return hop
            }()]),
        duration: .seconds(0.005))
}
