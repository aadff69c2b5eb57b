import PlanFixtures
import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// The resolver with its answer sources scripted (`ScriptedAnswerSources`) and its clock moved
/// by hand: lists, HTTPDNS answers kept for their TTL, one query for everyone waiting, fallback,
/// answers per client population, the SDK's ranking connects, and `serve`'s memory across runs.
/// No socket, no lab.
@Suite("DomainResolver, its answer sources scripted", .timeLimit(.minutes(1)))
struct DomainResolverTests {
    typealias Answer = Result<Resolution, TransferError>

    static let plan = """
        version: 1
        name: resolve
        clients:
          gd-mobile: {ip: 120.196.0.1}
          bj-unicom: {ip: 123.112.0.1}
        domains:
          builtin:
            static:
              api.example.com: [203.0.113.10, 203.0.113.11]
          tencent:
            httpdns: {format: dnspod, url: "http://119.29.29.29/d?dn={host}", fallback: system}
          ali:
            httpdns: {format: alibaba, url: "http://203.107.1.1/100000/d?host={host}", fallback: builtin}
          strict:
            httpdns: {format: alibaba, url: "http://203.107.1.1/100000/d?host={host}"}
          populations:
            httpdns: {format: alibaba, url: "http://203.107.1.1/100000/d?host={host}&ip={client}", clients: all}
          ranked:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/100000/d?host={host}&ip={client}"
              clients: all
              sdk: {profile: alibaba-ios, rank: {port: 443}}
        scenarios:
          - {name: s, domains: builtin, request: {url: "https://api.example.com/"}}
        """

    /// What a resolver said to one question, or nothing yet while its answer is held.
    final class Replies {
        private(set) var all: [Answer] = []

        var last: Answer? { all.last }

        func take(_ answer: Answer) { all.append(answer) }
    }

    /// A resolver of `plan` asking `sources`, on `clock`, with `serve`'s `memory` when given.
    struct Setup {
        let plan: Plan
        let sources: ScriptedAnswerSources
        let clock: ManualClock
        let resolver: DomainResolver

        init(
            sources: ScriptedAnswerSources = ScriptedAnswerSources(), memory: ResolutionMemory? = nil, clock: ManualClock = ManualClock()
        ) throws {
            let workspace = try PlanWorkspace()
            plan = try PlanLoader.load(path: try workspace.write("resolve.yaml", DomainResolverTests.plan), environment: [:])
            self.sources = sources
            self.clock = clock
            resolver = DomainResolver(plan: plan, sources: sources.sources, clock: clock.clock, memory: memory)
        }

        /// Asks for `host` through `map` (as `client`, by name); the replies so far, the answer
        /// last when it came at once.
        @discardableResult
        func ask(
            _ host: String, map: String, client: String? = nil, ipVersion: IPVersionPreference = .any, into replies: Replies = Replies()
        ) -> Replies {
            resolver.resolve(
                host: host, map: map, ipVersion: ipVersion, caFile: nil, resolver: .system, systemTimeout: .seconds(3),
                client: client.flatMap { name in plan.clients.first { $0.name == name } }, completion: replies.take)
            return replies
        }
    }

    static func answer(_ addresses: [String], ttl: Int? = nil, source: String = "HTTPDNS map") -> Answer {
        .success(Resolution(addresses: addresses.compactMap(IPAddress.init), source: source, lookupTime: .zero, ttl: ttl))
    }

    static func addresses(_ answer: Answer?) -> [String]? {
        guard case .success(let resolution) = answer else { return nil }
        return resolution.addresses.map(\.text)
    }

    static func failure(_ answer: Answer?) -> String? {
        guard case .failure(let error) = answer else { return nil }
        return error.message
    }

    @Test func aStaticMapAndAnIPLiteralAnswerAtOnceAskingNoOne() throws {
        let setup = try Setup()
        let listed = setup.ask("api.example.com", map: "builtin").last
        #expect(Self.addresses(listed) == ["203.0.113.10", "203.0.113.11"])
        #expect(try listed?.get().source == "static map 'builtin'")
        #expect(try listed?.get().lookupTime == .zero)
        #expect(Self.failure(setup.ask("cdn.example.com", map: "builtin").last) == "host 'cdn.example.com' is not in static map 'builtin'")
        #expect(Self.addresses(setup.ask("192.0.2.9", map: "tencent").last) == ["192.0.2.9"])
        #expect(Self.failure(setup.ask("api.example.com", map: "nowhere").last) == "no domain map named 'nowhere'")
        #expect(setup.sources.asked == [])
        #expect(setup.resolver.records.map { "\($0.map) \($0.host)" } == ["builtin api.example.com", "builtin cdn.example.com"])
    }

    @Test func anHTTPDNSAnswerIsKeptForItsTTLThenAskedAgain() throws {
        let setup = try Setup()
        setup.sources.answers["service strict api.example.com"] = Self.answer(["192.0.2.1"], ttl: 30)
        #expect(Self.addresses(setup.ask("api.example.com", map: "strict").last) == ["192.0.2.1"])
        setup.clock.advance(by: .seconds(30) - .nanoseconds(1))
        let kept = setup.ask("api.example.com", map: "strict").last
        #expect(Self.addresses(kept) == ["192.0.2.1"])
        #expect(try kept?.get().lookupTime == .zero, "a kept answer takes no lookup")
        #expect(setup.sources.asked == ["service strict api.example.com"])
        // At its TTL the answer is gone: the service is asked again, and its new answer stands.
        setup.clock.advance(by: .nanoseconds(1))
        setup.sources.answers["service strict api.example.com"] = Self.answer(["192.0.2.9"], ttl: 30)
        #expect(Self.addresses(setup.ask("api.example.com", map: "strict").last) == ["192.0.2.9"])
        #expect(setup.sources.asked == ["service strict api.example.com", "service strict api.example.com"])
        #expect(setup.resolver.httpdnsLookups.map(\.succeeded) == [true, true])
    }

    @Test func askersWhileTheServiceIsSlowWaitForItsOneQueryTimedFromItsStart() throws {
        let setup = try Setup()
        let replies = Replies()
        for _ in 0..<3 { setup.ask("api.example.com", map: "strict", into: replies) }
        // Another family is another question.
        let v6 = setup.ask("api.example.com", map: "strict", ipVersion: .v6)
        #expect(setup.sources.asked == ["service strict api.example.com", "service strict api.example.com ip_version 6"])
        #expect(replies.all.isEmpty, "no answer before the service's")
        setup.clock.advance(by: .milliseconds(250))
        setup.sources.answer("service strict api.example.com", with: Self.answer(["192.0.2.1"], ttl: 60))
        #expect(replies.all.count == 3 && replies.all.allSatisfy { Self.addresses($0) == ["192.0.2.1"] })
        #expect(try replies.all.map { try $0.get().lookupTime } == Array(repeating: .milliseconds(250), count: 3))
        #expect(v6.all.isEmpty, "the other family still waits for its own answer")
        #expect(setup.sources.waiting == ["service strict api.example.com ip_version 6"])
        // Asked again once answered: from the cache, nothing asked.
        #expect(try setup.ask("api.example.com", map: "strict").last?.get().lookupTime == .zero)
        #expect(setup.sources.asked.count == 2)
        #expect(setup.resolver.records.count == 1, "one answer per question, not per asker")
    }

    @Test func aFailingServiceFallsBackAsItsMapSays() throws {
        let setup = try Setup()
        let failed = TransferError(kind: .resolve, message: "HTTPDNS map 'x' at A: HTTP 502")
        for map in ["tencent", "ali", "strict"] { setup.sources.answers["service \(map) api.example.com"] = .failure(failed) }
        setup.sources.answers["resolver system api.example.com"] = Self.answer(["198.51.100.7"], source: "system resolver")

        let system = try #require(try setup.ask("api.example.com", map: "tencent").last?.get())
        #expect(system.addresses.map(\.text) == ["198.51.100.7"])
        #expect(system.notes.first == "fallback: HTTPDNS map 'tencent' failed (HTTPDNS map 'x' at A: HTTP 502); used the system resolver")
        #expect(system.source == "system resolver (fallback for 'tencent')")
        #expect(system.fallbackFrom == "tencent")

        let listed = try #require(try setup.ask("api.example.com", map: "ali").last?.get())
        #expect(listed.addresses.map(\.text) == ["203.0.113.10", "203.0.113.11"])
        #expect(listed.notes.first == "fallback: HTTPDNS map 'ali' failed (HTTPDNS map 'x' at A: HTTP 502); used map 'builtin'")

        #expect(Self.failure(setup.ask("api.example.com", map: "strict").last) == failed.message, "no fallback: the failure stands")
        #expect(setup.sources.asked == [
            "service tencent api.example.com", "resolver system api.example.com", "service ali api.example.com",
            "service strict api.example.com",
        ])
        // A failure has no TTL: it stands for the rest of the run, asked no more.
        #expect(Self.failure(setup.ask("api.example.com", map: "strict").last) == failed.message)
        #expect(setup.sources.asked.count == 4)
        #expect(setup.resolver.httpdnsLookups.map { "\($0.map) \($0.succeeded)" } == ["tencent false", "ali false", "strict false"])
    }

    @Test func aFallbackThatFailsTooSaysBoth() throws {
        let setup = try Setup()
        setup.sources.answers["service tencent api.example.com"] = .failure(TransferError(kind: .resolve, message: "HTTP 502"))
        setup.sources.answers["resolver system api.example.com"] = .failure(TransferError(kind: .resolve, message: "no such host"))
        #expect(Self.failure(setup.ask("api.example.com", map: "tencent").last)
            == "HTTP 502; fallback the system resolver failed too: no such host")
    }

    @Test func aMapAskedAsClientsAnswersEachOneApart() throws {
        let setup = try Setup()
        setup.sources.answers["service populations api.example.com as gd-mobile"] = Self.answer(["192.0.2.1"], ttl: 60)
        setup.sources.answers["service populations api.example.com as bj-unicom"] = Self.answer(["192.0.2.2"], ttl: 60)
        setup.sources.answers["service strict api.example.com"] = Self.answer(["192.0.2.3"], ttl: 60)
        #expect(Self.addresses(setup.ask("api.example.com", map: "populations", client: "gd-mobile").last) == ["192.0.2.1"])
        #expect(Self.addresses(setup.ask("api.example.com", map: "populations", client: "bj-unicom").last) == ["192.0.2.2"])
        #expect(Self.addresses(setup.ask("api.example.com", map: "populations", client: "gd-mobile").last) == ["192.0.2.1"])
        // A map not asked as clients answers every population alike, as this machine.
        #expect(Self.addresses(setup.ask("api.example.com", map: "strict", client: "gd-mobile").last) == ["192.0.2.3"])
        #expect(Self.addresses(setup.ask("api.example.com", map: "strict", client: "bj-unicom").last) == ["192.0.2.3"])
        #expect(setup.sources.asked == [
            "service populations api.example.com as gd-mobile", "service populations api.example.com as bj-unicom",
            "service strict api.example.com",
        ])
        #expect(setup.resolver.records.map { $0.client ?? "-" } == ["gd-mobile", "bj-unicom", "-"])
    }

    @Test func theSDKsRankingConnectsAreMadeOncePerAddressAndPort() throws {
        let sources = ScriptedAnswerSources(connects: [
            "192.0.2.1:443": .connected(.milliseconds(80)), "192.0.2.2:443": .connected(.milliseconds(5)),
        ])
        let setup = try Setup(sources: sources)
        // Each population gets the same three edges in an order of its own; 192.0.2.3 refuses.
        sources.answers["service ranked api.example.com as gd-mobile"] = Self.answer(["192.0.2.1", "192.0.2.2", "192.0.2.3"], ttl: 60)
        sources.answers["service ranked api.example.com as bj-unicom"] = Self.answer(["192.0.2.3", "192.0.2.1", "192.0.2.2"], ttl: 60)
        for client in ["gd-mobile", "bj-unicom"] {
            let pick = try #require(try setup.ask("api.example.com", map: "ranked", client: client).last?.get().pick)
            #expect(pick.choice.order.map(\.text) == ["192.0.2.2", "192.0.2.1", "192.0.2.3"], "\(client): fastest first, refused last")
            #expect(pick.choice.picked.map(\.address.text) == ["192.0.2.2"], "\(client)")
            #expect(pick.connects.count == 3, "\(client): every address's connect in its evidence")
        }
        #expect(sources.probes.connectsMade == 3, "three (address, port)s, one connect each for both populations")
    }

    @Test func serveKeepsAServicesAnswerAcrossRunsForItsTTLButNotAFallbacksNorAForgottenOne() throws {
        let memory = ResolutionMemory()
        let clock = ManualClock()
        let script = { (sources: ScriptedAnswerSources) in
            sources.answers["service strict api.example.com"] = Self.answer(["192.0.2.1"], ttl: 60)
            sources.answers["service tencent api.example.com"] = .failure(TransferError(kind: .resolve, message: "HTTP 502"))
            sources.answers["resolver system api.example.com"] = Self.answer(["198.51.100.7"], ttl: 300, source: "system resolver")
        }
        let first = try Setup(memory: memory, clock: clock)
        script(first.sources)
        first.ask("api.example.com", map: "strict")
        first.ask("api.example.com", map: "tencent")
        #expect(memory.count == 1, "the fallback's answer is not kept")

        // The next cycle, 20 s on: a resolver of its own, the service's answer kept with 40 s left.
        clock.advance(by: .seconds(20))
        let next = try Setup(memory: memory, clock: clock)
        script(next.sources)
        let kept = try #require(try next.ask("api.example.com", map: "strict").last?.get())
        #expect(kept.addresses.map(\.text) == ["192.0.2.1"])
        #expect(kept.ttl == 40)
        #expect(kept.source == "HTTPDNS map (kept from an earlier run, 40s left)")
        next.ask("api.example.com", map: "tencent")
        #expect(next.sources.asked == ["service tencent api.example.com", "resolver system api.example.com"])
        #expect(next.resolver.httpdnsLookups.map { "\($0.map) \($0.succeeded) \($0.duration)" } == [
            "strict true \(Duration.zero)", "tencent false \(Duration.zero)",
        ])

        // The state file could not record it: the cycle after asks the service again.
        memory.forget([AnswerKey(plan: "resolve", map: "strict", host: "api.example.com", client: nil)])
        #expect(memory.count == 0)
        let after = try Setup(memory: memory, clock: clock)
        script(after.sources)
        after.ask("api.example.com", map: "strict")
        #expect(after.sources.asked == ["service strict api.example.com"])
    }
}
