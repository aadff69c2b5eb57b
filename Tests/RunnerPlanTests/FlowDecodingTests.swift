import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// `capture` and `after` (flows): what they decode to, and every plan error they can make, as
/// the command line prints it.
@Suite("Flows in a plan: capture and after", .timeLimit(.minutes(1)))
struct FlowDecodingTests {
    func load(_ scenarios: String) throws -> Plan {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", "version: 1\nscenarios:\n" + scenarios)
        return try PlanLoader.load(path: path, variables: [:], environment: [:])
    }

    /// Each error as `LINE:COL: message` (the file left out).
    func errors(_ scenarios: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", "version: 1\nscenarios:\n" + scenarios)
        return loadErrors(path).map { error in
            error.location.map { "\($0.line):\($0.column): \(error.message)" } ?? error.message
        }
    }

    static let login = """
          - name: login
            request: {method: POST, url: "https://api.example.com/login", body: "{}"}
            capture:
              token: {json: "$.token", secret: true}
              session: {header: Set-Cookie}
              csrf: {body: 'name="csrf" value="([^"]+)"'}

        """

    @Test func capturesAndAfterDecode() throws {
        let plan = try load(Self.login + """
              - name: profile
                after: login
                request: {url: "https://api.example.com/me"}
              - name: logout
                after: [profile, login]
                request: {url: "https://api.example.com/logout"}

            """)
        let login = plan.scenarios[0]
        #expect(login.captures.map(\.name) == ["token", "session", "csrf"])
        #expect(login.captures.map(\.secret) == [true, false, false])
        #expect(login.captures[0].source == .json(JSONPath(components: [.member("token")], text: "$.token")))
        #expect(login.captures[1].source == .header("Set-Cookie"))
        #expect(login.captures[2].source == .body(#"name="csrf" value="([^"]+)""#))
        #expect(login.captures[0].location.line == 6)
        #expect(login.after.isEmpty)
        #expect(plan.scenarios[1].after.map(\.name) == ["login"])
        #expect(plan.scenarios[2].after.map(\.name) == ["profile", "login"])
        #expect(plan.scenarios[2].after.map(\.location.line) == [13, 13])
    }

    @Test(arguments: [
        ("  - name: a\n    after: b\n    request: {url: 'http://a.test/'}\n  - name: bb\n    request: {url: 'http://a.test/'}\n",
         "4:12: unknown scenario 'b' in 'after' of scenario 'a'; did you mean 'bb'?"),
        ("  - name: a\n    after: a\n    request: {url: 'http://a.test/'}\n",
         "4:12: scenario 'a' cannot run after itself"),
        ("  - name: a\n    after: c\n    request: {url: 'http://a.test/'}\n  - name: b\n    after: a\n    request: {url: 'http://a.test/'}\n"
            + "  - name: c\n    after: b\n    request: {url: 'http://a.test/'}\n",
         "4:12: 'after' forms a cycle: 'a' → 'c' → 'b' → 'a' (each runs after the next)"),
        ("  - name: a\n    after: []\n    request: {url: 'http://a.test/'}\n",
         "4:12: expected at least one scenario name for 'after' in scenario 'a', got an empty list"),
        ("  - name: a\n    after: [b, b]\n    request: {url: 'http://a.test/'}\n  - name: b\n    request: {url: 'http://a.test/'}\n",
         "4:16: scenario 'b' is named twice in scenario 'a' (first at 4:13)"),
        ("  - name: a\n    capture: {token: {json: $.t, header: X-T}}\n    request: {url: 'http://a.test/'}\n",
         "4:34: a capture takes exactly one of 'json', 'header' and 'body' in capture 'token' of scenario 'a'; found 'json' and 'header'"),
        ("  - name: a\n    capture: {token: {secret: true}}\n    request: {url: 'http://a.test/'}\n",
         "4:15: a capture takes exactly one of 'json', 'header' and 'body' in capture 'token' of scenario 'a'"),
        ("  - name: a\n    capture: {1st: {json: $.t}}\n    request: {url: 'http://a.test/'}\n",
         "4:15: invalid capture name '1st' in capture of scenario 'a'; a capture name is a letter or '_', then letters, digits or '_'"),
        ("  - name: a\n    capture: {t: {body: 'no group'}}\n    request: {url: 'http://a.test/'}\n",
         "4:25: a body capture takes a regular expression with exactly one group, 'body' in capture 't' of scenario 'a' has 0"),
        ("  - name: a\n    capture: {t: {body: '(a'}}\n    request: {url: 'http://a.test/'}\n",
         "4:25: invalid regular expression '(a' for 'body' in capture 't' of scenario 'a'"),
        ("  - name: a\n    capture: {t: {json: '$.list[*]'}}\n    request: {url: 'http://a.test/'}\n",
         "4:25: invalid JSON path '$.list[*]' for 'json' in capture 't' of scenario 'a': '[*]' at position 7 selects every element, and one value is compared here; give an index such as [0]"),
        ("  - name: a\n    capture: {t: {jsn: $.t}}\n    request: {url: 'http://a.test/'}\n",
         "4:19: unknown key 'jsn' in capture 't' of scenario 'a'; did you mean 'json'?"),
        ("  - name: a\n    capture: {t: {json: $.t}}\n    request: {url: 'http://a.test/'}\n"
            + "  - name: b\n    after: a\n    capture: {t: {header: X-T}}\n    request: {url: 'http://a.test/'}\n",
         "8:15: capture 't' of scenario 'b' is already captured by scenario 'a' before it on its 'after' chain; give it another name"),
    ])
    func flowErrors(_ scenarios: String, _ expected: String) throws {
        let found = try errors(scenarios)
        #expect(found == [expected], "\(found)")
    }

    /// Captures of different chains may share a name: a scenario after two others takes one
    /// chain at a time.
    @Test func twoChainsMayCaptureTheSameName() throws {
        let plan = try load("""
              - name: a
                capture: {t: {json: $.t}}
                request: {url: 'http://a.test/'}
              - name: b
                capture: {t: {header: X-T}}
                request: {url: 'http://a.test/'}
              - name: c
                after: [a, b]
                request: {url: 'http://a.test/'}

            """)
        #expect(plan.scenarios[2].after.count == 2)
    }

    @Test("${capture:NAME} is recorded where the run puts the value: URL path and query, header value, body")
    func captureUsesAreRecorded() throws {
        let plan = try load(Self.login + """
              - name: profile
                after: login
                request:
                  method: POST
                  url: "https://api.example.com/v1/${capture:session}/me?t=${capture:token}&x=1"
                  headers: {Authorization: "Bearer ${capture:token}", X-Plain: "no capture"}
                  body: '{"csrf":"${capture:csrf}"}'

            """)
        let profile = plan.scenarios[1]
        #expect(profile.request.url.pathAndQuery == "/v1//me?t=&x=1")
        #expect(profile.request.headers.first { $0.name == "Authorization" }?.value == "Bearer ")
        #expect(profile.request.body == .bytes(Data(#"{"csrf":""}"#.utf8)))
        let uses = profile.captureUses.map { "\($0.name) \($0.field) \($0.offset) \($0.location.line)" }
        #expect(uses == [
            "session pathAndQuery 4 13", "token pathAndQuery 10 13", "token header(\"authorization\") 7 14", "csrf body 9 15",
        ])
    }

    @Test(arguments: [
        ("  - name: a\n    after: login\n    request: {url: 'https://${capture:token}.example.com/'}\n",
         "11:20: ${capture:token} in 'url' in request of scenario 'a' must be in the URL's path or query, not its scheme, host or port"),
        ("  - name: a\n    after: login\n    request: {url: 'https://api.example.com${capture:token}'}\n",
         "11:20: ${capture:token} in 'url' in request of scenario 'a' must be in the URL's path or query, not its scheme, host or port"),
        ("  - name: a\n    after: login\n    request: {url: 'https://api.example.com/#${capture:token}'}\n",
         "11:20: ${capture:token} in 'url' in request of scenario 'a' must be in the URL's path or query, written percent-encoded as it is sent"),
        ("  - name: a\n    after: login\n    request: {url: 'https://api.example.com/'}\n    expect: {body: {contains: '${capture:token}'}}\n",
         "12:31: ${capture:token} can only be used in a scenario's request: the URL's path and query, header values and 'body'"),
        ("  - name: a\n    after: login\n    request: {url: 'https://api.example.com/${capture:1x}'}\n",
         "11:20: invalid capture name '1x' in '${capture:1x}'; a capture name is a letter or '_', then letters, digits or '_'"),
        ("  - name: a\n    request: {url: 'https://api.example.com/${capture:token}'}\n",
         "10:20: ${capture:token} in scenario 'a': no scenario before it on its 'after' chain captures 'token'"),
    ])
    func captureUseErrors(_ scenario: String, _ expected: String) throws {
        let found = try errors(Self.login + scenario)
        #expect(found == [expected], "\(found)")
    }

    @Test("a capture in defaults is refused: it would reach scenarios that run after nothing")
    func captureInDefaultsIsRefused() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write(
            "plan.yaml",
            "version: 1\ndefaults:\n  headers: {Authorization: 'Bearer ${capture:token}'}\nscenarios:\n"
                + "  - name: a\n    request: {url: 'https://api.example.com/'}\n")
        let found = loadErrors(path).map(\.message)
        #expect(found == ["${capture:token} can only be used in a scenario's request: the URL's path and query, header values and 'body'"])
    }

    /// A login with an error of its own (an unset secret) is reported once: the step after it
    /// is not also told that nothing captures its token.
    @Test func aBrokenPredecessorIsReportedOnce() throws {
        let found = try errors("""
              - name: login
                request: {method: POST, url: "https://api.example.com/login", body: "${secret:UNSET}"}
                capture: {token: {json: "$.token"}}
              - name: profile
                after: login
                request: {url: "https://api.example.com/me", headers: {Authorization: "Bearer ${capture:token}"}}

            """)
        #expect(found == ["4:73: environment variable 'UNSET' is not set"], "\(found)")
    }
}
