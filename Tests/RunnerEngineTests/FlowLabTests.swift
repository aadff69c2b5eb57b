import Foundation
import LabTestSupport
import RunnerLab
import RunnerResults
import Testing

/// Flows against the lab's sessions, which live on the address that served the login: a step
/// passes only on its login's lane, and a lane never mixes with another.
@Suite("Flows against the lab: log in, then use the session", .timeLimit(.minutes(3)))
struct FlowLabTests {
    static let header = """
        version: 1
        name: flows
        defaults:
          timeout: 20s
          ca: {{ca}}
          domains: lab
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2, 127.0.0.5]
              single.lab.test: [127.0.0.5]
        scenarios:

        """

    static func login(strategy: String, scheme: String, password: String = LabSession.password, ips: String = "first") -> String {
        let port = scheme == "https" ? "{{https}}" : "{{http}}"
        return """
              - name: login
                strategy: \(strategy)
                ips: \(ips)
                request:
                  method: POST
                  url: "\(scheme)://api.lab.test:\(port)/session/login"
                  headers: {Content-Type: application/json}
                  body: '{"user":"probe","password":"\(password)"}'
                expect: {status: 200}
                capture:
                  token: {json: "$.token", secret: true}
                  address: {json: "$.address"}

            """
    }

    @Test(arguments: [("header-only", "http"), ("sni-resolve", "https"), ("trust-override", "https")])
    func aLoginFlowPassesUnderEachStrategy(_ strategy: String, _ scheme: String) async throws {
        let port = scheme == "https" ? "{{https}}" : "{{http}}"
        let run = try await LabRun.make().run(Self.header + Self.login(strategy: strategy, scheme: scheme) + """
              - name: profile
                after: login
                request:
                  url: "\(scheme)://api.lab.test:\(port)/session/me"
                  headers: {Authorization: "Bearer ${capture:token}"}
                expect:
                  status: 200
                  body: {json: {"$.user": probe, "$.via": token, "$.address": 127.0.0.2}}
            """)
        #expect(run.all.map(\.displayName) == [
            "login [\(strategy) 127.0.0.2]", "profile [\(strategy) 127.0.0.2] after login [\(strategy) 127.0.0.2]",
        ])
        for result in run.all { #expect(result.passed, "\(result.summary)") }
        let login = try #require(run.all.first)
        #expect(login.evidence.captured == [
            CaptureRecord(name: "token", value: nil), CaptureRecord(name: "address", value: "127.0.0.2"),
        ])
        let profile = try #require(run.all.last)
        #expect(profile.evidence.ipSource == "kept from login [\(strategy) 127.0.0.2]")
        #expect(profile.evidence.notes.contains("captures used: token (secret)"))
    }

    @Test("each login result has its own lane: ips: all gives one step per IP, each on its login's address")
    func lanesNeverMix() async throws {
        let run = try await LabRun.make().run(Self.header + Self.login(strategy: "sni-resolve", scheme: "https", ips: "all") + """
              - name: profile
                after: login
                request:
                  url: "https://api.lab.test:{{https}}/session/me?address=${capture:address}"
                  headers: {Authorization: "Bearer ${capture:token}"}
                expect: {status: 200}
            """)
        #expect(run.all.map(\.displayName) == [
            "login [sni-resolve 127.0.0.2]", "login [sni-resolve 127.0.0.5]",
            "profile [sni-resolve 127.0.0.2] after login [sni-resolve 127.0.0.2]",
            "profile [sni-resolve 127.0.0.5] after login [sni-resolve 127.0.0.5]",
        ])
        for result in run.all { #expect(result.passed, "\(result.summary)") }
        #expect(run.all.last?.evidence.hops.first?.originalURL.hasSuffix("/session/me?address=127.0.0.5") == true)
    }

    @Test("a chain of three: the third step uses a capture of the first and one of the second, on the same lane")
    func aChainOfThree() async throws {
        let run = try await LabRun.make().run(Self.header + Self.login(strategy: "trust-override", scheme: "https") + """
              - name: profile
                after: login
                request:
                  url: "https://api.lab.test:{{https}}/session/me"
                  headers: {Authorization: "Bearer ${capture:token}"}
                capture:
                  user: {json: "$.user"}
                  via: {body: '"via":"([a-z]+)"'}
              - name: orders
                after: profile
                request:
                  url: "https://api.lab.test:{{https}}/session/me?user=${capture:user}&via=${capture:via}"
                  headers: {Authorization: "Bearer ${capture:token}"}
                expect: {status: 200, body: {json: {"$.user": probe}}}
            """)
        for result in run.all { #expect(result.passed, "\(result.summary)") }
        let orders = try #require(run.all.last)
        #expect(orders.displayName
            == "orders [trust-override 127.0.0.2] after profile [trust-override 127.0.0.2] after login [trust-override 127.0.0.2]")
        #expect(orders.evidence.hops.first?.originalURL.hasSuffix("/session/me?user=probe&via=token") == true)
        #expect(run.all[1].evidence.captured == [CaptureRecord(name: "user", value: "probe"), CaptureRecord(name: "via", value: "token")])
    }

    @Test("a step sent to another address with the session fails there: the server knows no such session")
    func anotherAddressDoesNotKnowTheSession() async throws {
        let run = try await LabRun.make().run(Self.header + Self.login(strategy: "sni-resolve", scheme: "https") + """
              - name: elsewhere
                after: login
                request:
                  url: "https://single.lab.test:{{https}}/session/me"
                  headers: {Authorization: "Bearer ${capture:token}"}
                expect: {status: 200}
            """)
        let step = try #require(run.all.last)
        #expect(step.displayName == "elsewhere [sni-resolve 127.0.0.5] after login [sni-resolve 127.0.0.2]")
        guard case .failed(let problems) = step.outcome else {
            Issue.record("expected a failure, got \(step.summary)")
            return
        }
        #expect(problems.map(\.description) == ["status: expected 200, got 401"])
        #expect(step.evidence.ipSource == "static map 'lab'")
    }

    @Test("after a login that fails, every step of the flow is skipped, naming what did not pass")
    func aFailedLoginSkipsTheFlow() async throws {
        // A lab of its own: it counts what reached it.
        let labRun = try await LabRun.dedicated()
        let lab = labRun.lab
        let run = try await labRun.run(Self.header + Self.login(strategy: "sni-resolve", scheme: "https", password: "nope") + """
              - name: profile
                after: login
                request:
                  url: "https://api.lab.test:{{https}}/session/me"
                  headers: {Authorization: "Bearer ${capture:token}"}
              - name: orders
                after: profile
                request: {url: "https://api.lab.test:{{https}}/session/me"}
            """)
        #expect(run.all.map(\.outcome.word) == ["failed", "skipped", "skipped"])
        #expect(run.all.map(\.displayName).last == "orders [sni-resolve 127.0.0.2] after profile [sni-resolve 127.0.0.2] after login [sni-resolve 127.0.0.2]")
        guard case .skipped(let reason) = run.all[1].outcome, case .skipped(let next) = run.all[2].outcome else { return }
        #expect(reason == "login [sni-resolve 127.0.0.2] did not pass (failed)")
        #expect(next == "profile [sni-resolve 127.0.0.2] did not pass (skipped)")
        #expect(lab.requestsReceived(path: "/session/me") == 0, "no step was sent")
        #expect(run.result.counts.skipped == 2)
        try await lab.shutdown()
    }

    @Test("the login's cookies go with the session: a step without the token is known by its cookie")
    func cookiesCarryTheSession() async throws {
        let run = try await LabRun.make().run(Self.header + Self.login(strategy: "trust-override", scheme: "https") + """
              - name: by cookie
                after: login
                request: {url: "https://api.lab.test:{{https}}/session/me"}
                expect:
                  status: 200
                  body: {json: {"$.via": cookie, "$.address": 127.0.0.2}}
            """)
        for result in run.all { #expect(result.passed, "\(result.summary)") }
        #expect(run.all.last?.evidence.notes.contains { $0.hasPrefix("cookies kept: lab_session") } == true)
    }
}

extension Outcome {
    /// `passed`, `failed`, `error` or `skipped`.
    fileprivate var word: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .errored: "error"
        case .skipped: "skipped"
        }
    }
}
