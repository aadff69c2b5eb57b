import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// The SDK's pick as values: each population's answer carries its pick; the expansion names on
/// each result the populations that pick its address and those that pick others; the verdict
/// makes a failing pick a problem of kind `pick` and says of a failing address no one picks so.
@Suite("The SDK's pick on results, as values", .timeLimit(.minutes(1)))
struct PickExpansionTests {
    static let clients = ClientExpansionTests.clients

    /// An answer as `profile`'s SDK picks from it, ranked by `connects` (milliseconds; nil: refused).
    static func answer(_ addresses: [String], profile: SDKProfile, connects: [String: Int?]? = nil) -> Result<Resolution, TransferError> {
        let answer = addresses.compactMap(IPAddress.init)
        var resolution = Resolution(addresses: answer, source: "HTTPDNS map 'm'", lookupTime: .milliseconds(2), ttl: 120)
        let outcomes = connects.map { connects in
            Dictionary(uniqueKeysWithValues: connects.compactMap { text, time -> (IPAddress, ConnectOutcome)? in
                IPAddress(text).map { address in
                    (address, time.map { .connected(.milliseconds($0)) } ?? .failed(ConnectFailure(code: 111, reason: "connection refused")))
                }
            })
        }
        resolution.pick = AnswerPick(answer: answer, profile: profile, connects: outcomes, port: outcomes == nil ? nil : 8443)
        return .success(resolution)
    }

    static var ranking: SDKProfile {
        var profile = SDKProfile(kind: .alibabaIOS)
        profile.ranking = SDKProfile.Kind.alibabaIOS.defaultRanking(port: 8443)
        return profile
    }

    func expand(_ answers: [Result<Resolution, TransferError>], ips: IPSelection = .all) throws -> [PlannedResult] {
        var scenario = try ResultStateMachineTests.planned().scenario
        scenario.ips = ips
        let combined = Resolution(clients: zip(Self.clients, answers).map(ClientResolution.init))
        return ResultExpansion.expand(scenario, strategyOverride: nil, resolution: .success(combined))
    }

    @Test func eachResultNamesWhoPicksItsAddressAndWhoPicksOthers() throws {
        let connects: [String: Int?] = ["192.0.2.1": nil, "192.0.2.2": 40, "192.0.2.3": 5]
        let planned = try expand([
            Self.answer(["192.0.2.1", "192.0.2.2", "192.0.2.3"], profile: Self.ranking, connects: connects),
            Self.answer(["192.0.2.1", "192.0.2.2"], profile: SDKProfile(kind: .alibabaIOS)),
        ])
        let byAddress = Dictionary(uniqueKeysWithValues: planned.compactMap { result in result.ip.map { ($0.text, result.pick) } })
        #expect(byAddress["192.0.2.3"]??.pickers == [PickEvidence.Picker(client: "gd-mobile", reason: "fastest connect, 5 ms")])
        #expect(byAddress["192.0.2.1"]??.pickers == [PickEvidence.Picker(client: "gd-telecom", reason: "first in the answer; ranking off")])
        #expect(byAddress["192.0.2.1"]??.elsewhere == [PickEvidence.Elsewhere(client: "gd-mobile", addresses: ["192.0.2.3"])])
        #expect(byAddress["192.0.2.2"]??.pickers == [])
        #expect(byAddress["192.0.2.2"]??.connects.map(\.described) == ["192.0.2.1:8443 connection refused", "192.0.2.2:8443 40 ms", "192.0.2.3:8443 5 ms"])
        // Under `ips: first` a ranked population's first result is its pick, not the service's first.
        let first = try expand([Self.answer(["192.0.2.1", "192.0.2.2", "192.0.2.3"], profile: Self.ranking, connects: connects)], ips: .first)
        #expect(first.map { $0.ip?.text } == ["192.0.2.3"])
    }

    @Test func aFailingPickIsAPickProblemAndAFailingAddressNoOneUsesSaysSo() throws {
        let pick = PickEvidence(
            map: "ali", host: "api.example.com", sdk: "alibaba-ios",
            pickers: [.init(client: "gd-mobile", reason: "first in the answer; ranking off"), .init(client: "bj-unicom", reason: "first in the answer; ranking off")])
        let address = try #require(IPAddress("127.0.0.9"))
        var notes: [String] = []
        let refused = TransferError(kind: .connect, message: "connection refused")
        let failed = PickVerdict.apply(to: .errored(refused), pick: pick, address: address, retained: false, notes: &notes)
        guard case .failed(let problems) = failed else {
            Issue.record("a failing pick fails: \(failed)")
            return
        }
        #expect(problems.map(\.kind) == [.pick, .expectation])
        #expect(problems.first?.description == "The apps of gd-mobile, bj-unicom connect to 127.0.0.9 (first in the answer; ranking off) and it fails")
        let single = Problem.failingPick(
            PickEvidence(map: "ali", host: "h", sdk: "alibaba-ios", pickers: [.init(client: "gd-mobile", reason: "first in the answer; ranking off")]),
            address: "127.0.0.9")
        #expect(single.map(\.description) == ["gd-mobile's apps connect to 127.0.0.9 (first in the answer; ranking off) and it fails"])
        #expect(PickVerdict.apply(to: .passed, pick: pick, address: address, retained: false, notes: &notes).isPassed)

        let nobody = PickEvidence(
            map: "ali", host: "h", sdk: "alibaba-ios", pickers: [], elsewhere: [.init(client: "gd-mobile", addresses: ["127.0.0.2"])])
        guard case .errored(let error) = PickVerdict.apply(to: .errored(refused), pick: nobody, address: address, retained: false, notes: &notes) else {
            Issue.record("an address no one picks keeps its error")
            return
        }
        #expect(error.diagnosis == "no population's apps use this address (ali, alibaba-ios): gd-mobile picks 127.0.0.2")
        let expectation = Problem(subject: "status", expected: "200", actual: "503")
        _ = PickVerdict.apply(to: .failed([expectation]), pick: nobody, address: address, retained: false, notes: &notes)
        #expect(notes == ["no population's apps use this address (ali, alibaba-ios): gd-mobile picks 127.0.0.2"])
    }
}
