import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine

/// Domain maps backed by the lab's HTTPDNS service: each format end to end, each fault with
/// and without a fallback, deduplication, TTL caching, fan-out and IPv6.
@Suite("HTTPDNS maps against the lab", .timeLimit(.minutes(3)))
struct HTTPDNSLabTests {
    /// One HTTPDNS service of the lab, as a map names it.
    struct Service: Sendable, CustomTestStringConvertible {
        var format: String
        var url: String
        /// Keys the format needs beside `format` and `url`.
        var extra: String? = nil
        /// The auth scheme `extra` gives the map, which texts name beside the format.
        var scheme: String? = nil

        var testDescription: String { extra.map { "\(format), \($0)" } ?? format }
        /// How texts name the map's service: `alibaba-v2, alibaba-v2` for a format and its scheme.
        var named: String { scheme.map { "\(format), \($0)" } ?? format }
    }

    static let services = [
        Service(format: "dnspod", url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1"),
        Service(format: "alibaba", url: "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"),
        Service(format: "doh-json", url: "http://127.0.0.2:{{http}}/httpdns/doh/resolve?name={host}"),
        Service(
            format: "json", url: "http://127.0.0.2:{{http}}/httpdns/json/v1/resolve?name={host}",
            extra: #"answer: {ips: "$.answer.v4", ipv6: "$.answer.v6[*]", ttl: "$.answer.ttl"}"#),
        Service(format: "doh", url: "http://127.0.0.2:{{http}}/dns-query"),
        Service(format: "doh", url: "http://127.0.0.2:{{http}}/dns-query", extra: "method: POST"),
        // Signed, its names and answer encrypted (the lab's credentials: LabDNS.credentialsEnvironment).
        Service(
            format: "alibaba-v2", url: "http://127.0.0.2:{{http}}/v2/d?id=100000&dn={host}",
            extra: #"auth: {scheme: alibaba-v2, secret: "${secret:LAB_ALIBABA_V2_SECRET}", encrypt: aes-gcm, key: "${secret:LAB_ALIBABA_V2_KEY}"}"#,
            scheme: "alibaba-v2"),
    ]

    /// `timeout` is the map's: 5 s by default, room for a loaded machine (CI runs the suite in
    /// parallel); tests of the timeout itself give a shorter one.
    static func plan(_ service: Service, timeout: String = "5s", fallback: String? = nil, scenarios: String) -> String {
        """
        version: 1
        name: httpdns
        defaults:
          timeout: 10s
          ca: {{ca}}
          domains: dns
        domains:
          dns:
            httpdns:
              format: \(service.format)
              url: "\(service.url)"
        \(service.extra.map { "      \($0)\n" } ?? "")      timeout: \(timeout)
        \(fallback.map { "      fallback: \($0)\n" } ?? "")  backup:
            static:
              empty.lab.test: [127.0.0.2]
              garbage.lab.test: [127.0.0.2]
              error.lab.test: [127.0.0.2]
              slow.lab.test: [127.0.0.2]
              hang.lab.test: [127.0.0.2]
              nosuch.lab.test: [127.0.0.2]
              nowhere.lab.test: [127.0.0.2]
              zero.lab.test: [127.0.0.2]
              noips.lab.test: [127.0.0.2]
        scenarios:
        \(scenarios)
        """
    }

    /// Each format: the request really reaches every IP the service returned, IPv4 first.
    @Test(arguments: services)
    func eachFormatReachesTheIPsTheServiceReturned(service: Service) async throws {
        let format = service.named
        let run = try await LabRun.make().run(Self.plan(service, scenarios: """
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
        // The service's own lookup, for the metrics: one, answered with the three addresses.
        let lookups = try #require(run.suites.first?.httpdnsLookups)
        #expect(lookups.map { [$0.map, $0.host] } == [["dns", "api.lab.test"]])
        #expect(lookups.first?.succeeded == true)
        #expect(lookups.first?.addressCount == 3)
        #expect((lookups.first?.duration ?? .zero) > .zero)
    }

    @Test(arguments: services)
    func ipVersionSixAsksForAAAAAndReachesItOverIPv6(service: Service) async throws {
        let run = try await LabRun.make().run(Self.plan(service, scenarios: """
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
        for service in Self.services {
            let format = service.named
            // The hang is cut at 2 s; the faults that do answer get 5 s, room for a loaded machine.
            let timeout = host == "hang.lab.test" ? "2s" : "5s"
            let run = try await labRun.run(Self.plan(service, timeout: timeout, scenarios: """
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
            #expect(run.duration < .seconds(8), "\(format) \(host) took \(run.duration)")
        }
    }

    /// The timeout is the map's own, honoured to within half a second.
    @Test func aSlowServiceTimesOutAtTheMapsTimeout() async throws {
        let service = Self.services[0]
        let labRun = try await LabRun.make()
        let run = try await labRun.run(Self.plan(service, timeout: "1s", scenarios: """
              - name: slow
                strategy: header-only
                request: {url: "http://slow.lab.test:{{http}}/echo"}
            """))
        #expect(run.all.first?.error?.message.contains("no answer within 1s") == true, "\(run.all.map(\.summary))")
        // Not before the timeout, and before the slow host's answer at 3 s.
        // (libcurl counts in whole milliseconds on its own clock: it may fire a hair early.)
        #expect(run.duration >= .seconds(0.95) && run.duration < .seconds(2.9), "took \(run.duration) for a 1 s timeout")
    }

    /// With a fallback the request still runs — and its evidence says resolution was degraded.
    @Test(arguments: ["empty.lab.test", "garbage.lab.test", "error.lab.test", "hang.lab.test", "nosuch.lab.test"], services)
    func aFaultWithAFallbackPassesAndSaysSo(host: String, service: Service) async throws {
        let format = service.named
        let timeout = host == "hang.lab.test" ? "2s" : "5s"
        let run = try await LabRun.make().run(Self.plan(service, timeout: timeout, fallback: "backup", scenarios: """
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
        // The service failed even though its fallback saved the result: the lookup says so.
        let lookup = try #require(run.suites.first?.httpdnsLookups.first)
        #expect(run.suites.first?.httpdnsLookups.count == 1)
        #expect([lookup.map, lookup.host] == ["dns", host])
        #expect(!lookup.succeeded)
        #expect(lookup.addressCount == 0)
    }

    /// The vendors' own "no record" forms, served by the lab, are "no answer": a DNSPod `0-0`
    /// (`type=addrs`, the plan's `ip_version: any`), `host|clientip` and `0`, and an Alibaba
    /// answer without `ips`, are each a `resolve` error saying "no answer", not an unreadable body;
    /// and with a fallback, the fallback answers.
    @Test(arguments: [
        ("dnspod", "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1", "nowhere.lab.test", "any", "no answer ('0-0')"),
        ("dnspod", "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1&clientip=1", "nowhere.lab.test", "4",
         "no answer ('nowhere.lab.test|127.0.0.1')"),
        ("dnspod", "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1", "zero.lab.test", "4", "no answer ('0')"),
        ("alibaba", "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}", "noips.lab.test", "any",
         "no answer (no 'ips' or 'ipsv6')"),
    ])
    func aVendorsNoRecordFormIsNoAnswer(format: String, url: String, host: String, ipVersion: String, detail: String) async throws {
        let service = Service(format: format, url: url)
        let scenario = """
              - name: no record
                strategy: header-only
                ip_version: \(ipVersion)
                request: {url: "http://\(host):{{http}}/echo"}
                expect:
                  body: {json: {"$.local_address": 127.0.0.2}}
            """
        let labRun = try await LabRun.make()
        let bare = try await labRun.run(Self.plan(service, scenarios: scenario))
        let error = try #require(bare.all.first?.error, "\(bare.all.map(\.summary))")
        #expect(error.kind == .resolve)
        #expect(error.message.hasPrefix("HTTPDNS map 'dns' (\(format)) at http://127.0.0.2:"), "\(error.message)")
        #expect(error.message.hasSuffix("answered HTTP 200: \(detail)"), "\(error.message)")
        #expect(!error.message.contains("not a"), "read as the vendor means it, not as garbage: \(error.message)")

        let degraded = try await labRun.run(Self.plan(service, fallback: "backup", scenarios: scenario))
        let result = try #require(degraded.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.ipSource == "static map 'backup' (fallback for 'dns')", "\(result.evidence.ipSource)")
        #expect(result.evidence.notes.first?.contains(detail) == true, "\(result.evidence.notes)")
    }

    /// The vendors' answer forms that carry addresses, served by the lab: Alibaba's unused fields
    /// in odd types; `/v2/d` without a `mode` key, and with `mode` a number, in each mode.
    @Test(arguments: [
        (services[1], "oddfields.lab.test"),
        (services[6], "nomode.lab.test"), (services[6], "numbermode.lab.test"),
        (Service(
            format: "alibaba-v2", url: "http://127.0.0.2:{{http}}/v2/d?id=100000&dn={host}",
            extra: #"auth: {scheme: alibaba-v2, secret: "${secret:LAB_ALIBABA_V2_SECRET}"}"#, scheme: "alibaba-v2"), "nomode.lab.test"),
        (Service(
            format: "alibaba-v2", url: "http://127.0.0.2:{{http}}/v2/d?id=100000&dn={host}",
            extra: #"auth: {scheme: alibaba-v2, secret: "${secret:LAB_ALIBABA_V2_SECRET}", encrypt: aes-cbc, key: "${secret:LAB_ALIBABA_V2_KEY}"}"#,
            scheme: "alibaba-v2"), "numbermode.lab.test"),
    ])
    func aVendorsAnswerFormReachesItsAddress(service: Service, host: String) async throws {
        let run = try await LabRun.make().run(Self.plan(service, scenarios: """
              - name: sample
                strategy: header-only
                request: {url: "http://\(host):{{http}}/echo"}
                expect:
                  body: {json: {"$.local_address": 127.0.0.2}}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(service.named) \(host): \(result.summary)")
        #expect(result.ip == "127.0.0.2")
        #expect(result.evidence.ipSource.hasPrefix("HTTPDNS map 'dns' (\(service.named)) via http://127.0.0.2:"), "\(result.evidence.ipSource)")
    }

    /// `fallback: system`: the IP pinned is the one the machine's resolver gives for the host
    /// (getaddrinfo), and the evidence says the resolution was degraded.
    @Test func theSystemFallbackUsesTheMachineResolver() async throws {
        let service = Self.services[2]
        let run = try await LabRun.make().run(Self.plan(service, fallback: "system", scenarios: """
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
        #expect(result.evidence.hops.first?.connection.pinnedIP == pinned.text)
    }

    /// N scenarios on one host at --jobs 8 make one lookup, in every format (a lookup of a
    /// format that asks one family per query is its A and AAAA queries).
    @Test(arguments: services)
    func concurrentAsksShareOneLookup(service: Service) async throws {
        let labRun = try await LabRun.dedicated()
        let scenarios = (0..<8).map { index in
            """
              - name: ask \(index)
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/echo"}
            """
        }.joined(separator: "\n")
        let run = try await labRun.run(Self.plan(service, scenarios: scenarios), jobs: 8)
        #expect(run.all.count == 8)
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        let queries = ["doh", "doh-json"].contains(service.format) ? 2 : 1
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == queries)
        try await labRun.lab.shutdown()
    }

    /// An answer is reused while its TTL lasts and asked again after it. The engine's clock is
    /// moved 1.5 s as each result finishes (one at a time), so the second lookup of each host
    /// comes 1.5 s later on that clock, without waiting.
    @Test func answersAreCachedForTheirTTL() async throws {
        let labRun = try await LabRun.dedicated()
        let service = Self.services[1]
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
            Self.plan(service, scenarios: scenarios), jobs: 1, clock: manual.clock,
            afterEachResult: { manual.advance(by: .milliseconds(1500)) })
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        #expect(labRun.lab.httpdnsLookups(host: "shortttl.lab.test") == 2, "ttl 1 s: asked again 1.5 s later")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1, "ttl 60 s: answered from the cache")
        try await labRun.lab.shutdown()
    }

    /// Runs that share a `ResolutionMemory` (`runner serve`'s cycles) ask the service again only
    /// when an answer's TTL has run out; a run without one asks afresh.
    @Test func answersAreKeptAcrossRunsByTheirTTL() async throws {
        let labRun = try await LabRun.dedicated()
        let scenarios = ["api.lab.test", "shortttl.lab.test"].map { host in
            """
              - name: \(host)
                strategy: header-only
                request: {url: "http://\(host):{{http}}/echo"}
            """
        }.joined(separator: "\n")
        let plan = Self.plan(Self.services[0], scenarios: scenarios)
        // One plan file, as `serve` runs the same files cycle after cycle.
        let path = try LabPlans.write(plan, lab: labRun.lab)
        let memory = ResolutionMemory()
        let manual = ManualClock()
        let first = try await labRun.run(plan, jobs: 1, clock: manual.clock, memory: memory, planPath: path)
        manual.advance(by: .milliseconds(1500))
        let second = try await labRun.run(plan, jobs: 1, clock: manual.clock, memory: memory, planPath: path)
        #expect((first.all + second.all).allSatisfy { $0.passed }, "\((first.all + second.all).map(\.summary))")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1, "ttl 60 s: the second run used the kept answer")
        #expect(labRun.lab.httpdnsLookups(host: "shortttl.lab.test") == 2, "ttl 1 s: gone 1.5 s later")
        let kept = try #require(second.all.first { $0.scenario == "api.lab.test" })
        #expect(kept.evidence.ipSource.contains("(kept from an earlier run, 58s left)"), "\(kept.evidence.ipSource)")
        #expect(memory.count == 2)
        _ = try await labRun.run(plan, jobs: 1, clock: manual.clock)
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 2, "a run without the memory asks afresh")
        try await labRun.lab.shutdown()
    }

    /// `ips: all` over two IPs where one passes and one fails: one result each.
    @Test func fanOutReportsEachIP() async throws {
        let service = Self.services[2]
        let run = try await LabRun.make().run(Self.plan(service, scenarios: """
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
                  timeout: 5s
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
            defaults: {timeout: 15s, ca: {{ca}}, domains: dns}
            domains:
              dns:
                httpdns:
                  format: alibaba
                  url: "https://api.lab.test:{{https}}/httpdns/alibaba/\(LabDNS.refusedAccount)/d?host={host}"
                  service_ips: [\(LabAddress.primary), \(LabAddress.replica)]
                  timeout: 10s
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

/// What only one format can say, end to end: DoH's RCODEs, TC and `Age`; json's strictness.
@Suite("HTTPDNS format-specific answers against the lab", .timeLimit(.minutes(2)))
struct HTTPDNSFormatAnswersLabTests {
    @Test(arguments: [
        ("servfail.lab.test", "answered DNS error SERVFAIL (RCODE 2)"),
        ("refused.lab.test", "answered DNS error REFUSED (RCODE 5)"),
        ("truncated.lab.test", "answered truncated answer (TC set)"),
    ])
    func dohErrors(host: String, fragment: String) async throws {
        let run = try await LabRun.make().run(HTTPDNSLabTests.plan(HTTPDNSLabTests.services[4], scenarios: """
              - name: a
                strategy: header-only
                request: {url: "http://\(host):{{http}}/echo"}
            """))
        let error = try #require(run.all.first?.error, "\(run.all.map(\.summary))")
        #expect(error.kind == .resolve)
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    @Test func dohTTLIsLessTheResponsesAge() async throws {
        let run = try await LabRun.make().run(HTTPDNSLabTests.plan(HTTPDNSLabTests.services[5], scenarios: """
              - name: aged
                strategy: header-only
                ip_version: 4
                request: {url: "http://aged.lab.test:{{http}}/echo"}
            """))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.ipSource.hasSuffix("/dns-query (A, POST), ttl 70s"), "\(result.evidence.ipSource)")
    }

    @Test(arguments: [
        ("badjson.lab.test", "holds 'not-an-address', not an IP address"),
        ("negttl.lab.test", "$.answer.ttl holds '-5', not a TTL"),
    ])
    func jsonIsStrict(host: String, fragment: String) async throws {
        let run = try await LabRun.make().run(HTTPDNSLabTests.plan(HTTPDNSLabTests.services[3], scenarios: """
              - name: a
                strategy: header-only
                request: {url: "http://\(host):{{http}}/echo"}
            """))
        let error = try #require(run.all.first?.error, "\(run.all.map(\.summary))")
        #expect(error.message.contains("answered HTTP 200: not a JSON answer ("), "\(error.message)")
        #expect(error.message.contains(fragment), "\(error.message)")
    }
}
