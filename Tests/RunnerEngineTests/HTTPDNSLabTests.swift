import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

/// Domain maps backed by the lab's HTTPDNS service: each format end to end, each fault with
/// and without a fallback, deduplication, TTL caching, fan-out and IPv6.
@Suite("HTTPDNS maps against the lab", .timeLimit(.minutes(3)))
struct HTTPDNSLabTests {
    static let services = [
        ("dnspod", "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1"),
        ("alibaba", "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"),
        ("doh-json", "http://127.0.0.2:{{http}}/httpdns/doh/resolve?name={host}"),
        // Any JSON: here the Alibaba answer, mapped by JSONPath (both families asked in the URL).
        ("json", "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}&query=4,6"),
    ]

    /// What a format needs beside `format` and `url`.
    static let formatKeys = ["json": #"answer: {ips: "$.ips[*]", ipv6: "$.ipsv6[*]", ttl: "$.ttl"}"#]

    static func plan(format: String, url: String, timeout: String = "2s", fallback: String? = nil, scenarios: String) -> String {
        """
        version: 1
        name: httpdns
        defaults:
          timeout: 5s
          ca: {{ca}}
          domains: dns
        domains:
          dns:
            httpdns:
              format: \(format)
              url: "\(url)"
        \(formatKeys[format].map { "      \($0)\n" } ?? "")      timeout: \(timeout)
        \(fallback.map { "      fallback: \($0)\n" } ?? "")  backup:
            static:
              empty.lab.test: [127.0.0.2]
              garbage.lab.test: [127.0.0.2]
              error.lab.test: [127.0.0.2]
              slow.lab.test: [127.0.0.2]
              hang.lab.test: [127.0.0.2]
              nosuch.lab.test: [127.0.0.2]
        scenarios:
        \(scenarios)
        """
    }

    /// Each format: the request really reaches every IP the service returned, IPv4 first.
    @Test(arguments: services)
    func eachFormatReachesTheIPsTheServiceReturned(format: String, url: String) async throws {
        let run = try await LabRun.make().run(Self.plan(format: format, url: url, scenarios: """
              - name: api
                strategy: sni-resolve
                ips: all
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect:
                  body: {json: {"$.sni": api.lab.test}}
            """))
        #expect(run.all.map { $0.ip ?? "-" } == ["127.0.0.2", "127.0.0.5", "::1"], "\(run.all.map(\.summary))")
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
            #expect(result.evidence.hops.first?.connectedIP == result.ip)
            #expect(result.evidence.ipSource.hasPrefix("HTTPDNS map 'dns' (\(format)) via http://127.0.0.2:"), "\(result.evidence.ipSource)")
        }
        let properties = try #require(run.suites.first?.properties)
        let answer = try #require(properties.first { $0.name == "domains.dns.api.lab.test" })
        #expect(answer.value.hasPrefix("127.0.0.2, 127.0.0.5, ::1 (HTTPDNS map 'dns' (\(format))"), "\(answer.value)")
        #expect(answer.value.contains("ttl 60s"))
    }

    @Test(arguments: services)
    func ipVersionSixAsksForAAAAAndReachesItOverIPv6(format: String, url: String) async throws {
        let run = try await LabRun.make().run(Self.plan(format: format, url: url, scenarios: """
              - name: v6
                strategy: [header-only]
                ip_version: 6
                request: {url: "http://v6only.lab.test:{{http}}/echo"}
                expect:
                  body: {json: {"$.local_address": "::1", "$.host": "v6only.lab.test:{{http}}"}}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.ip == "::1")
    }

    /// Every fault, without a fallback: a resolve error naming the service URL and what was wrong.
    @Test(arguments: [
        ("empty.lab.test", "answered HTTP 200: "),
        ("garbage.lab.test", "answered HTTP 200: "),
        ("error.lab.test", "answered HTTP 500: "),
        ("nosuch.lab.test", "answered HTTP 200: "),
        ("hang.lab.test", "no answer within 2s"),
    ])
    func aFaultWithoutFallbackIsAResolveError(host: String, fragment: String) async throws {
        let labRun = try await LabRun.make()
        for (format, url) in Self.services {
            // 2 s: room for a loaded machine to answer the faults that do answer.
            let run = try await labRun.run(Self.plan(format: format, url: url, timeout: "2s", scenarios: """
                  - name: fault
                    strategy: header-only
                    request: {url: "http://\(host):{{http}}/echo"}
                """))
            let result = try #require(run.all.first)
            let error = try #require(result.error, "\(format) \(host): \(result.summary)")
            #expect(error.kind == .resolve)
            #expect(error.message.hasPrefix("HTTPDNS map 'dns' (\(format)) at http://127.0.0.2:"), "\(error.message)")
            #expect(error.message.contains(fragment), "\(format) \(host): \(error.message)")
            // The map's timeout (or an immediate answer) ended it, not the scenario's 10 s one.
            #expect(run.duration < 8, "\(format) \(host) took \(run.duration) s")
        }
    }

    /// The timeout is the map's own, honoured to within half a second.
    @Test func aSlowServiceTimesOutAtTheMapsTimeout() async throws {
        let (format, url) = Self.services[0]
        let labRun = try await LabRun.make()
        let run = try await labRun.run(Self.plan(format: format, url: url, timeout: "1s", scenarios: """
              - name: slow
                strategy: header-only
                request: {url: "http://slow.lab.test:{{http}}/echo"}
            """))
        #expect(run.all.first?.error?.message.contains("no answer within 1s") == true, "\(run.all.map(\.summary))")
        // Not before the timeout, and before the slow host's answer at 3 s.
        // (libcurl counts in whole milliseconds on its own clock: it may fire a hair early.)
        #expect(run.duration >= 0.95 && run.duration < 2.9, "took \(run.duration) s for a 1 s timeout")
    }

    /// With a fallback the request still runs — and its evidence says resolution was degraded.
    @Test(arguments: ["empty.lab.test", "garbage.lab.test", "error.lab.test", "hang.lab.test", "nosuch.lab.test"], services)
    func aFaultWithAFallbackPassesAndSaysSo(host: String, service: (String, String)) async throws {
        let (format, url) = service
        let run = try await LabRun.make().run(Self.plan(format: format, url: url, timeout: "2s", fallback: "backup", scenarios: """
              - name: degraded
                strategy: header-only
                request: {url: "http://\(host):{{http}}/echo"}
                expect:
                  body: {json: {"$.local_address": 127.0.0.2}}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.ipSource == "static map 'backup' (fallback for 'dns')")
        #expect(result.evidence.notes.first?.hasPrefix("fallback: HTTPDNS map 'dns' failed (HTTPDNS map 'dns' (\(format)) at http://127.0.0.2:") == true,
                "\(result.evidence.notes)")
        let property = run.suites.first?.properties.first { $0.name == "domains.dns.\(host)" }
        #expect(property?.value.contains("fallback: HTTPDNS map 'dns' failed") == true, "\(String(describing: property))")
    }

    /// `fallback: system`: the IP pinned is the one the machine's resolver gives for the host
    /// (getaddrinfo), and the evidence says the resolution was degraded.
    @Test func theSystemFallbackUsesTheMachineResolver() async throws {
        let (format, url) = Self.services[2]
        let run = try await LabRun.make().run(Self.plan(format: format, url: url, fallback: "system", scenarios: """
              - name: localhost
                strategy: header-only
                connect_timeout: 1s
                request: {url: "http://localhost:{{http}}/echo"}
            """))
        let result = try #require(run.all.first)
        #expect(result.evidence.ipSource == "system resolver (fallback for 'dns')", "\(result.summary)")
        #expect(result.evidence.resolutionFallbackFrom == "dns")
        let pinned = try #require(result.ip.flatMap(IPAddress.init))
        #expect(pinned == IPAddress("127.0.0.1") || pinned == IPAddress("::1"), "\(result.summary)")
        #expect(result.evidence.hops.first?.pinnedIP == pinned.text)
    }

    /// N scenarios on one host at --jobs 8 make one lookup.
    @Test func concurrentAsksShareOneLookup() async throws {
        let labRun = try await LabRun.dedicated()
        let (format, url) = Self.services[0]
        let scenarios = (0..<8).map { index in
            """
              - name: ask \(index)
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/echo"}
            """
        }.joined(separator: "\n")
        let run = try await labRun.run(Self.plan(format: format, url: url, scenarios: scenarios), jobs: 8)
        #expect(run.all.count == 8)
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1)
        try await labRun.lab.shutdown()
    }

    /// An answer is reused while its TTL lasts and asked again after it. The engine's clock is
    /// moved 1.5 s as each result finishes (one at a time), so the second lookup of each host
    /// comes 1.5 s later on that clock, without waiting.
    @Test func answersAreCachedForTheirTTL() async throws {
        let labRun = try await LabRun.dedicated()
        let (format, url) = Self.services[1]
        let scenarios = ["shortttl.lab.test", "api.lab.test"].flatMap { host in
            [
                """
                  - name: \(host) first
                    strategy: header-only
                    request: {url: "http://\(host):{{http}}/echo"}
                """,
                """
                  - name: \(host) second
                    strategy: header-only
                    request: {url: "http://\(host):{{http}}/echo"}
                """,
            ]
        }.joined(separator: "\n")
        let manual = ManualClock()
        let run = try await labRun.run(
            Self.plan(format: format, url: url, scenarios: scenarios), jobs: 1, clock: manual.clock,
            afterEachResult: { manual.advance(by: .milliseconds(1500)) })
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        #expect(labRun.lab.httpdnsLookups(host: "shortttl.lab.test") == 2, "ttl 1 s: asked again 1.5 s later")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1, "ttl 60 s: answered from the cache")
        try await labRun.lab.shutdown()
    }

    /// `ips: all` over two IPs where one passes and one fails: one result each.
    @Test func fanOutReportsEachIP() async throws {
        let (format, url) = Self.services[2]
        let run = try await LabRun.make().run(Self.plan(format: format, url: url, scenarios: """
              - name: split
                strategy: header-only
                ips: all
                connect_timeout: 1s
                request: {url: "http://split.lab.test:{{http}}/echo"}
            """))
        #expect(run.all.map(\.displayName) == ["split [header-only 127.0.0.2]", "split [header-only 127.0.0.9]"])
        #expect(run.all.first?.passed == true, "\(run.all.map(\.summary))")
        #expect(run.all.last?.error?.kind == .connect, "\(run.all.map(\.summary))")
    }
}

/// `service_ips`: the service's own host reached at shipped addresses, in order, failing over.
@Suite("HTTPDNS service addresses against the lab", .timeLimit(.minutes(2)))
struct HTTPDNSServiceIPsLabTests {
    /// The service's URL names `api.lab.test`, which no resolver knows: only `service_ips` can
    /// reach it. Nothing listens on .9 (connect fails) and the expired host's certificate fails
    /// the handshake, so the lookup moves on to the primary, verified as `api.lab.test`.
    @Test func failsOverToTheNextAddressAndSaysWhichAnswered() async throws {
        let serviceIPs = "[127.0.0.9, \(LabAddress.expired), \(LabAddress.primary)]"
        let run = try await LabRun.make().run("""
            version: 1
            defaults: {timeout: 5s, connect_timeout: 1s, ca: {{ca}}, domains: dns}
            domains:
              dns:
                httpdns:
                  format: alibaba
                  url: "https://api.lab.test:{{https}}/httpdns/alibaba/100000/d?host={host}"
                  service_ips: \(serviceIPs)
                  timeout: 2s
            scenarios:
              - name: api
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        let source = result.evidence.ipSource
        #expect(source.contains("at \(LabAddress.primary) (after 127.0.0.9: "), "\(source)")
        #expect(source.contains("; \(LabAddress.expired): "), "\(source)")
    }

    /// The first address that answers is the service's answer, even a refusal: no failover.
    @Test func anAnswerFromTheFirstAddressIsFinal() async throws {
        let run = try await LabRun.make().run("""
            version: 1
            defaults: {timeout: 5s, ca: {{ca}}, domains: dns}
            domains:
              dns:
                httpdns:
                  format: alibaba
                  url: "https://api.lab.test:{{https}}/httpdns/alibaba/\(LabDNS.refusedAccount)/d?host={host}"
                  service_ips: [\(LabAddress.primary), \(LabAddress.replica)]
            scenarios:
              - name: api
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
            """)
        let result = try #require(run.all.first)
        #expect(result.error?.kind == .resolve, "\(result.summary)")
        #expect(result.error?.message.contains("at \(LabAddress.primary) answered InvalidAccount (HTTP 403)") == true,
                "\(result.error?.message ?? "")")
    }
}
