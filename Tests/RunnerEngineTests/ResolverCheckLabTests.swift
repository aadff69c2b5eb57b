import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

/// `resolver:` and `expect.dns.within` against real DNS servers: the lab's honest, lying and
/// silent resolvers, and unbound (a server nobody here wrote).
@Suite("Resolver checks against the lab's DNS servers and unbound", .timeLimit(.minutes(3)))
struct ResolverCheckLabTests {
    static let unbound = Task { try await UnboundDoH.start(deadline: .seconds(30)) }

    static func plan(_ scenarios: String) -> String {
        """
        version: 1
        name: resolver checks
        defaults:
          timeout: 10s
          connect_timeout: 2s
          ca: {{ca}}
          domains: shipped
        domains:
          shipped:
            static:
              api.lab.test: [127.0.0.2, 127.0.0.5, "::1"]
              sni.lab.test: [127.0.0.3]
          other:
            static:
              sni.lab.test: [127.0.0.3]
          broken:
            httpdns:
              format: dnspod
              url: "http://127.0.0.9:{{http}}/httpdns/dnspod/d?dn={host}"
              timeout: 1s
              fallback: system
        scenarios:
        \(scenarios)
        """
    }

    static let lying = "resolver: \"\(LabResolver.lying.address):{{dns}}\""

    @Test("a lying resolver's foreign address fails the result though the request passed")
    func aLyingResolverFails() async throws {
        let labRun = try await LabRun.make()
        let run = try await labRun.run(Self.plan("""
              - name: api
                strategy: system
                \(Self.lying)
                ip_version: 4
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
            """))
        let result = try #require(run.all.first)
        let resolver = "\(LabResolver.lying.address):\(labRun.lab.dnsPort)"
        guard case .failed(let problems) = result.outcome else {
            Issue.record("expected a failure, got \(result.summary)")
            return
        }
        #expect(problems.map(\.actual) == [
            "resolver \(resolver) returned 127.0.0.7 for api.lab.test, which 'shipped' does not list",
        ])
        // The request itself went to the first address and passed: only the DNS check catches it.
        #expect(result.evidence.hops.map(\.status) == [200])
        #expect(result.evidence.hops.first?.connectedIP == LabAddress.primary)
        #expect(result.ip == LabAddress.primary)
        let lookup = try #require(result.evidence.dns.first)
        #expect(lookup.resolver == resolver)
        #expect(lookup.addresses == LabResolver.lie)
        #expect(lookup.foreign == [LabAddress.impostor])
        #expect(lookup.within == ["shipped"])
        #expect(lookup.questions.map(\.type) == ["A"])
        #expect(lookup.questions.first?.rcode == "NOERROR")
        #expect(lookup.questions.first?.ttl == LabResolver.ttl)
        #expect(result.evidence.ipSource == "resolver \(resolver)")
        #expect(labRun.lab.resolverQueries(.lying, name: "api.lab.test") >= 1)
    }

    @Test("unbound, honest, over UDP: every address within the map, A and AAAA, and the request passes")
    func anHonestResolverPasses() async throws {
        let server = try await Self.unbound.value
        let run = try await LabRun.make().run(Self.plan("""
              - name: api
                strategy: system
                resolver: "\(UnboundDoH.listenAddress):\(server.dnsPort)"
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        let lookup = try #require(result.evidence.dns.first)
        #expect(lookup.addresses == [UnboundDoH.Names.apiIPv4, UnboundDoH.Names.apiIPv6])
        #expect(lookup.questions.map(\.type) == ["A", "AAAA"])
        #expect(lookup.foreign.isEmpty)
        #expect(server.queriesLogged(UnboundDoH.Names.api, type: "AAAA") >= 1, "the answer came from unbound")
    }

    @Test("a request that fails on a foreign answer is still the DNS failure, the transfer's error under it")
    func theTransferErrorIsListedUnderIt() async throws {
        let run = try await LabRun.make().run(Self.plan("""
              - name: closed port
                strategy: system
                \(Self.lying)
                ip_version: 4
                request: {url: "http://api.lab.test:1/status/200"}
                expect: {dns: {within: shipped}}
            """))
        let result = try #require(run.all.first)
        guard case .failed(let problems) = result.outcome else {
            Issue.record("expected a failure, got \(result.summary)")
            return
        }
        #expect(problems.map(\.subject) == ["dns", "request"])
        #expect(problems.last?.actual.hasPrefix("connect error: ") == true, "\(problems)")
    }

    @Test("a silent resolver is a resolve error naming it, within connect_timeout")
    func aSilentResolverIsAnError() async throws {
        let labRun = try await LabRun.make()
        let started = ContinuousClock.now
        let run = try await labRun.run(Self.plan("""
              - name: api
                strategy: system
                resolver: "\(LabResolver.silent.address):{{dns}}"
                ip_version: 4
                connect_timeout: 1s
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {dns: {within: shipped}}
            """))
        #expect(ContinuousClock.now - started < .seconds(8))
        let result = try #require(run.all.first)
        guard case .errored(let error) = result.outcome else {
            Issue.record("expected an error, got \(result.summary)")
            return
        }
        #expect(error.kind == .resolve)
        #expect(error.message == "resolver \(LabResolver.silent.address):\(labRun.lab.dnsPort) failed for 'api.lab.test': no answer in time")
    }

    @Test("a named map with no answer for the host is a resolve error naming the map")
    func aMapWithoutAnAnswerIsAnError() async throws {
        let run = try await LabRun.make().run(Self.plan("""
              - name: api
                strategy: system
                \(Self.lying)
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {dns: {within: other}}
            """))
        let result = try #require(run.all.first)
        guard case .errored(let error) = result.outcome else {
            Issue.record("expected an error, got \(result.summary)")
            return
        }
        #expect(error.kind == .resolve)
        #expect(error.message.hasPrefix("expect.dns: map 'other' has no answer for 'api.lab.test'"), "\(error.message)")
    }

    @Test("each redirect hop's host is asked and checked; a result from a map is not checked, and says so")
    func redirectHopsAndUncheckedResults() async throws {
        let run = try await LabRun.make().run(Self.plan("""
              - name: hop
                strategy: [system, sni-resolve]
                \(Self.lying)
                ip_version: 4
                request: {url: "https://sni.lab.test:{{https}}/redirect/302?to=https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
            """))
        let system = try #require(run.all.first)
        #expect(system.evidence.dns.map(\.host) == ["sni.lab.test", "api.lab.test"])
        #expect(system.evidence.dns.map(\.foreign) == [[], [LabAddress.impostor]])
        #expect(system.evidence.hops.map(\.connectedIP) == [LabAddress.sniOnly, LabAddress.primary])
        if case .failed(let problems) = system.outcome {
            #expect(problems.map(\.subject) == ["dns"])
        } else {
            Issue.record("expected a failure, got \(system.summary)")
        }
        let pinned = try #require(run.all.last)
        #expect(pinned.passed, "\(pinned.summary)")
        #expect(pinned.evidence.dns.isEmpty)
        #expect(pinned.evidence.dnsNotChecked == "expect.dns not checked: the addresses came from static map 'shipped'; hop 2: static map 'shipped', not a resolver")
    }

    @Test("fallback: system asks the scenario's resolver, and its answer is checked")
    func theFallbackAsksTheResolver() async throws {
        let run = try await LabRun.make().run(Self.plan("""
              - name: api
                strategy: sni-resolve
                domains: broken
                \(Self.lying)
                ip_version: 4
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
            """))
        let result = try #require(run.all.first)
        #expect(result.evidence.resolutionFallbackFrom == "broken")
        #expect(result.evidence.dns.first?.foreign == [LabAddress.impostor], "\(result.summary)")
        guard case .failed = result.outcome else {
            Issue.record("expected a failure, got \(result.summary)")
            return
        }
    }
}
