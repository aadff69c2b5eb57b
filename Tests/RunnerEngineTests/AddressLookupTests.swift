import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// What a host's lookup asks, and when it is done, driven with made-up answers: a domain map, a
/// resolver, both at once, and `expect.dns` checking a resolver's answer against named maps.
@Suite("The addresses a host needs, as a value", .timeLimit(.minutes(1)))
struct AddressLookupTests {
    typealias Answer = AddressLookup.Answer

    static func scenario(within: [String]? = nil) throws -> Scenario {
        var scenario = try ResultStateMachineTests.planned().scenario
        scenario.domainMap = "edge"
        scenario.expect.dns = within.map(DNSExpectation.init(within:))
        return scenario
    }

    static func answer(_ addresses: [String], resolver: String? = nil, host: String = "api.example.com") -> Answer {
        var resolution = Resolution(
            addresses: addresses.compactMap(IPAddress.init), source: resolver.map { "resolver \($0)" } ?? "static map",
            lookupTime: .milliseconds(3))
        if let resolver {
            resolution.dns = DNSLookupEvidence(
                resolver: resolver, host: host,
                questions: [DNSQuestionEvidence(
                    type: "A", rcode: "NOERROR", addresses: addresses, ttl: 60, aliases: [], duration: .milliseconds(3),
                    problem: nil)])
        }
        return .success(resolution)
    }

    static func questions(_ next: AddressLookup.Next) -> [AddressLookup.Question] {
        guard case .ask(let questions) = next else { return [] }
        return questions
    }

    static func addresses(_ answer: Answer?) -> [String]? {
        guard case .success(let resolution) = answer else { return nil }
        return resolution.addresses.map(\.text)
    }

    @Test func neitherSourceIsDoneAtOnce() throws {
        let lookup = AddressLookup(host: "api.example.com", for: try Self.scenario(), map: false, resolver: false)
        guard case .done(nil, nil) = lookup.start() else { Issue.record("asked for nothing, yet not done"); return }
    }

    @Test func theDomainMapAloneIsAskedThroughTheScenariosMap() throws {
        var lookup = AddressLookup(host: "api.example.com", for: try Self.scenario(), map: true, resolver: false)
        let asked = Self.questions(lookup.start())
        #expect(asked == [AddressLookup.Question(purpose: .answer(.domainMap), host: "api.example.com", map: "edge")])
        guard case .done(let map, nil) = lookup.answered(asked[0], Self.answer(["192.0.2.1"])) else {
            Issue.record("one answer for one question, yet not done")
            return
        }
        #expect(Self.addresses(map) == ["192.0.2.1"])
    }

    @Test func bothAreAskedAtOnceAndTheLastAnswerEndsIt() throws {
        var lookup = AddressLookup(host: "api.example.com", for: try Self.scenario(), map: true, resolver: true)
        let asked = Self.questions(lookup.start())
        #expect(asked.map(\.map) == ["edge", systemDomainMapName])
        // The resolver answers first: still waiting for the map.
        guard case .wait = lookup.answered(asked[1], Self.answer(["198.51.100.9"], resolver: "system")) else {
            Issue.record("done before the map answered")
            return
        }
        guard case .done(let map, let resolver) = lookup.answered(asked[0], Self.answer(["192.0.2.1"])) else {
            Issue.record("both answered, yet not done")
            return
        }
        #expect(Self.addresses(map) == ["192.0.2.1"])
        #expect(Self.addresses(resolver) == ["198.51.100.9"])
    }

    @Test func underExpectDNSAResolversAnswerIsCheckedAgainstEachNamedMapForTheHostItAsked() throws {
        var lookup = AddressLookup(
            host: "api.example.com", for: try Self.scenario(within: ["edge", "backup"]), map: false, resolver: true)
        let asked = Self.questions(lookup.start())
        // The resolver followed a CNAME: the maps are asked for the host its evidence names.
        let checks = Self.questions(
            lookup.answered(asked[0], Self.answer(["192.0.2.1", "203.0.113.66"], resolver: "system", host: "cdn.example.net")))
        #expect(checks == [
            AddressLookup.Question(purpose: .check(.resolver, slot: 0), host: "cdn.example.net", map: "edge"),
            AddressLookup.Question(purpose: .check(.resolver, slot: 1), host: "cdn.example.net", map: "backup"),
        ])
        // Answers out of order: the second map first.
        guard case .wait = lookup.answered(checks[1], Self.answer(["192.0.2.2"])) else {
            Issue.record("done before every map answered")
            return
        }
        guard case .done(nil, let resolver) = lookup.answered(checks[0], Self.answer(["192.0.2.1"])) else {
            Issue.record("every map answered, yet not done")
            return
        }
        guard case .success(let checked) = resolver else {
            Issue.record("the check failed: \(String(describing: resolver))")
            return
        }
        #expect(checked.dns?.within == ["edge", "backup"])
        #expect(checked.dns?.foreign == ["203.0.113.66"])
    }

    @Test func aNamedMapWithoutAnAnswerMakesTheLookupAnError() throws {
        var lookup = AddressLookup(host: "api.example.com", for: try Self.scenario(within: ["edge"]), map: false, resolver: true)
        let asked = Self.questions(lookup.start())
        let checks = Self.questions(lookup.answered(asked[0], Self.answer(["192.0.2.1"], resolver: "192.0.2.53:53")))
        let failure = TransferError(kind: .resolve, message: "no such host")
        guard case .done(nil, .failure(let error)) = lookup.answered(checks[0], .failure(failure)) else {
            Issue.record("a map without an answer did not fail the lookup")
            return
        }
        #expect(error.message.hasPrefix("expect.dns: map 'edge' has no answer for 'api.example.com'"))
    }

    @Test func anAnswerFromNoResolverIsNotChecked() throws {
        var lookup = AddressLookup(host: "api.example.com", for: try Self.scenario(within: ["edge"]), map: true, resolver: false)
        let asked = Self.questions(lookup.start())
        guard case .done(let map, nil) = lookup.answered(asked[0], Self.answer(["192.0.2.1"])) else {
            Issue.record("a map's answer was held for a check")
            return
        }
        #expect(Self.addresses(map) == ["192.0.2.1"])
    }
}
