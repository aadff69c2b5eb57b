import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// A map asked as user populations, as values: the lookup asks once per client and answers
/// them together; the expansion gives one result per distinct address naming the clients whose
/// answer held it; `expect.edges` fails the result its miss belongs to.
@Suite("Results per client population, as values", .timeLimit(.minutes(1)))
struct ClientExpansionTests {
    static func client(_ name: String, _ ip: String, region: String) throws -> ClientPopulation {
        let address = try #require(IPAddress(ip))
        return ClientPopulation(
            name: name, address: address, subnet: IPSubnet(covering: address, prefixLength: 24),
            labels: [ClientPopulation.Label(name: "region", value: region)])
    }

    static let clients: [ClientPopulation] = {
        (try? [
            client("gd-mobile", "120.196.0.1", region: "guangdong"), client("gd-telecom", "113.96.0.1", region: "guangdong"),
            client("bj-unicom", "123.112.0.1", region: "beijing"), client("sh-telecom", "101.80.0.1", region: "shanghai"),
        ]) ?? []
    }()

    static func answer(_ addresses: [String], notes: [String] = []) -> Result<Resolution, TransferError> {
        .success(Resolution(
            addresses: addresses.compactMap(IPAddress.init), source: "HTTPDNS map 'm'", lookupTime: .milliseconds(2),
            ttl: 120, notes: notes))
    }

    func scenario(ips: IPSelection = .all, ipVersion: IPVersionPreference = .any, edges: [EdgeRule] = []) throws -> Scenario {
        var scenario = try ResultStateMachineTests.planned().scenario
        scenario.ips = ips
        scenario.ipVersion = ipVersion
        scenario.expect.edges = edges
        return scenario
    }

    func expand(_ scenario: Scenario, _ answers: [Result<Resolution, TransferError>], maps: [DomainMapSpec] = []) -> [PlannedResult] {
        let combined = Resolution(clients: zip(Self.clients, answers).map(ClientResolution.init))
        return ResultExpansion.expand(scenario, strategyOverride: nil, resolution: .success(combined), maps: maps)
    }

    func summary(_ planned: [PlannedResult]) -> [String] {
        planned.map { "\($0.ip?.text ?? "-") \($0.clients.map(\.name).joined(separator: ","))" }
    }

    static let rule = SourceLocation(file: "p.yaml", line: 9, column: 11)

    @Test func theLookupAsksAsEachClientAndAnswersThemTogether() throws {
        var lookup = AddressLookup(
            host: "api.example.com", for: try scenario(), map: true, resolver: false, clients: Array(Self.clients.prefix(2)))
        guard case .ask(let questions) = lookup.start() else {
            Issue.record("nothing asked")
            return
        }
        #expect(questions.map { $0.client?.name } == ["gd-mobile", "gd-telecom"])
        // In whatever order the answers come, each is its client's.
        guard case .wait = lookup.answered(questions[1], Self.answer(["192.0.2.2", "192.0.2.1"])) else {
            Issue.record("done before every client answered")
            return
        }
        guard case .done(.success(let resolution)?, nil) = lookup.answered(questions[0], Self.answer(["192.0.2.1"])) else {
            Issue.record("not done once both answered")
            return
        }
        #expect(resolution.byClient.map(\.client.name) == ["gd-mobile", "gd-telecom"])
        #expect(resolution.addresses.map(\.text) == ["192.0.2.1", "192.0.2.2"], "the union, in the clients' order")
        #expect(resolution.ttl == 120)
    }

    @Test func anAddressSharedByPopulationsIsOneResultNamingThemAll() throws {
        let planned = expand(try scenario(), [
            Self.answer(["192.0.2.1"]), Self.answer(["192.0.2.1", "192.0.2.2"]), Self.answer(["192.0.2.9"]),
            Self.answer(["192.0.2.5"]),
        ])
        #expect(summary(planned) == [
            "192.0.2.1 gd-mobile,gd-telecom", "192.0.2.2 gd-telecom", "192.0.2.9 bj-unicom", "192.0.2.5 sh-telecom",
        ])
    }

    @Test func ipsFirstIsTheUnionOfEachClientsFirstAndNamesEveryClientHoldingIt() throws {
        let planned = expand(try scenario(ips: .first), [
            Self.answer(["192.0.2.2"]), Self.answer(["192.0.2.1", "192.0.2.2"]), Self.answer(["192.0.2.1"]),
            Self.answer(["2001:db8::1", "192.0.2.2"]),
        ])
        #expect(summary(planned) == ["192.0.2.2 gd-mobile,gd-telecom,sh-telecom", "192.0.2.1 gd-telecom,bj-unicom"])
    }

    @Test func failedAndEmptyAnswersMakeOneErrorNamingTheirClients() throws {
        let planned = expand(try scenario(ipVersion: .v4), [
            Self.answer(["192.0.2.1"], notes: ["fallback: used map 'list'"]),
            .failure(TransferError(kind: .resolve, message: "HTTPDNS map 'm' failed: timed out")),
            Self.answer(["2001:db8::1"]), Self.answer(["192.0.2.1"]),
        ])
        #expect(summary(planned) == ["192.0.2.1 gd-mobile,sh-telecom", "- gd-telecom,bj-unicom"])
        #expect(planned[0].resolution?.notes == ["as gd-mobile: fallback: used map 'list'"])
        #expect(planned[1].resolveError?.message == "as gd-telecom: HTTPDNS map 'm' failed: timed out; "
            + "as bj-unicom: HTTPDNS map 'm' has no IPv4 address for 'api.example.com' (it has 2001:db8::1)")
    }

    @Test func aPopulationSentOutsideItsRuleFailsItsAddressesResult() throws {
        let south = DomainMapSpec(
            name: "south",
            source: .staticList([DomainMapSpec.StaticEntry(host: "api.example.com", addresses: [try #require(IPAddress("192.0.2.1"))])]),
            location: Self.rule)
        let edges = [
            EdgeRule(clients: .labels([ClientPopulation.Label(name: "region", value: "guangdong")]), within: [.map("south")], location: Self.rule),
            EdgeRule(clients: .names(["sh-telecom"]), within: [.subnet(try #require(try? IPSubnet.parse("192.0.2.4/30").get()))], location: Self.rule),
        ]
        let planned = expand(try scenario(ips: .first, edges: edges), [
            Self.answer(["192.0.2.1", "192.0.2.7"]), Self.answer(["192.0.2.5"]), Self.answer(["192.0.2.9"]), Self.answer(["192.0.2.5"]),
        ], maps: [south])
        #expect(summary(planned) == ["192.0.2.1 gd-mobile", "192.0.2.5 gd-telecom,sh-telecom", "192.0.2.9 bj-unicom"])
        // gd-mobile's second address is no result of its own (`ips: first`): its first address's result carries the miss.
        #expect(planned[0].schedulingMisses.map(\.description) == [
            "gd-mobile (region=guangdong) was sent 192.0.2.7, outside south (192.0.2.1)"
        ])
        #expect(planned[1].schedulingMisses.map(\.description) == [
            "gd-telecom (region=guangdong) was sent 192.0.2.5, outside south (192.0.2.1)"
        ])
        #expect(planned[1].schedulingMisses.allSatisfy { $0.kind == .scheduling })
        #expect(planned[2].schedulingMisses.isEmpty, "no rule is for bj-unicom")
    }

    @Test func aMissFailsAPassingRequestAndComesBeforeAnErrorThatBecomesAProblem() {
        let miss = Problem(subject: "edges", expected: "10.0.0.0/8", actual: "gd-mobile was sent 192.0.2.1", kind: .scheduling)
        guard case .failed(let passed) = SchedulingVerdict.apply(to: .passed, misses: [miss]) else {
            Issue.record("a miss did not fail a passing request")
            return
        }
        #expect(passed == [miss])
        let error = TransferError(kind: .connect, message: "cannot connect to 192.0.2.1:443")
        guard case .failed(let errored) = SchedulingVerdict.apply(to: .errored(error), misses: [miss]) else {
            Issue.record("a miss did not fail an errored request")
            return
        }
        #expect(errored.map(\.description) == [
            "gd-mobile was sent 192.0.2.1, outside 10.0.0.0/8",
            "request: expected a response, got connect error: cannot connect to 192.0.2.1:443",
        ])
        guard case .passed = SchedulingVerdict.apply(to: .passed, misses: []) else {
            Issue.record("no miss changed the outcome")
            return
        }
    }
}
