import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// `resolver` and `expect.dns` (resolver checks): what they decode to, and their plan errors
/// as the command line prints them.
@Suite("Resolver checks in a plan: resolver and expect.dns", .timeLimit(.minutes(1)))
struct ResolverDecodingTests {
    static let top = """
        version: 1
        domains:
          shipped: {static: {api.example.com: [203.0.113.10]}}
          ali:
            httpdns: {format: dnspod, url: "http://203.0.113.1/d?dn={host}", fallback: system}
          strict:
            httpdns: {format: dnspod, url: "http://203.0.113.1/d?dn={host}"}

        """

    func load(_ body: String) throws -> Plan {
        let workspace = try PlanWorkspace()
        return try PlanLoader.load(path: try workspace.write("plan.yaml", Self.top + body), variables: [:], environment: [:])
    }

    func errors(_ body: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        return loadErrors(try workspace.write("plan.yaml", Self.top + body)).map { error in
            error.location.map { "\($0.line):\($0.column): \(error.message)" } ?? error.message
        }
    }

    @Test(arguments: [
        ("system", ResolverChoice.system), ("202.96.128.86", .server(IPAddress("202.96.128.86")!, port: 53)),
        ("127.0.0.1:5353", .server(IPAddress("127.0.0.1")!, port: 5353)),
        ("[2001:db8::53]:5353", .server(IPAddress("2001:db8::53")!, port: 5353)),
        ("[2001:db8::53]", .server(IPAddress("2001:db8::53")!, port: 53)),
        ("2001:db8::53", .server(IPAddress("2001:db8::53")!, port: 53)),
    ])
    func resolverForms(_ text: String, _ expected: ResolverChoice) throws {
        #expect(ResolverChoice(text) == expected)
        #expect(ResolverChoice(text).map(\.description) == (text == "system" ? "system" : expected.description))
    }

    @Test(arguments: ["dns.example.com", "127.0.0.1:0", "127.0.0.1:65536", "2001:db8::53:53x", "[127.0.0.1]:53", "2001:db8::1]:53", "", "127.0.0.1:+53"])
    func notAResolver(_ text: String) {
        #expect(ResolverChoice(text) == nil, "\(text)")
    }

    @Test("defaults give every scenario its resolver; a scenario's own wins; expect.dns names maps")
    func decodes() throws {
        let plan = try load("""
            defaults: {resolver: "202.96.128.86"}
            scenarios:
              - name: telecom
                strategy: system
                request: {url: "https://api.example.com/health"}
                expect: {dns: {within: [ali, shipped]}}
              - name: local
                resolver: "127.0.0.1:5353"
                domains: ali
                strategy: sni-resolve
                request: {url: "https://api.example.com/health"}
                expect: {dns: {within: shipped}}
            """)
        #expect(plan.scenarios.map(\.settings.resolver.description) == ["202.96.128.86", "127.0.0.1:5353"])
        #expect(plan.scenarios.map { $0.expect.dns?.within } == [["ali", "shipped"], ["shipped"]])
    }

    @Test(arguments: [
        ("scenarios:\n  - name: a\n    strategy: system\n    resolver: dns.example.com\n    request: {url: 'https://api.example.com/'}\n",
         "11:15: expected 'system' or a DNS server's address ('IP', 'IP:PORT' or '[IPv6]:PORT') for 'resolver' in scenario 'a', got 'dns.example.com'; a resolver is given by its address, since finding it by name would take a resolver"),
        ("scenarios:\n  - name: a\n    strategy: system\n    request: {url: 'https://api.example.com/'}\n    expect: {dns: {within: [shiped]}}\n",
         "12:29: unknown domain map 'shiped' in expect.dns of scenario 'a'; did you mean 'shipped'?"),
        ("scenarios:\n  - name: a\n    domains: strict\n    strategy: sni-resolve\n    request: {url: 'https://api.example.com/'}\n    expect: {dns: {within: shipped}}\n",
         "13:5: 'expect.dns' checks what a resolver answers, but scenario 'a' asks none: its strategies pin IPs from domain map 'strict', which does not fall back to the system resolver; use strategy 'system' or a map with 'fallback: system'"),
        ("scenarios:\n  - name: a\n    strategy: system\n    request: {url: 'https://api.example.com/'}\n    expect: {dns: {}}\n",
         "12:19: expected 'within' in 'dns' in expect of scenario 'a'"),
        ("scenarios:\n  - name: a\n    strategy: system\n    request: {url: 'https://api.example.com/'}\n    expect: {dns: {witin: shipped}}\n",
         "12:20: unknown key 'witin' in expect.dns of scenario 'a'; did you mean 'within'?"),
    ])
    func resolverErrors(_ body: String, _ expected: String) throws {
        let found = try errors(body)
        #expect(found == [expected], "\(found)")
    }
}
