import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// Retained addresses as values: a result each after the current answer's, in the families the
/// scenario asks, whatever `ips:`; with clients, naming the clients that held it.
@Suite("Retained addresses, as values", .timeLimit(.minutes(1)))
struct RetainedExpansionTests {
    static func retained(_ address: String, client: String? = nil) -> RetainedAddress? {
        IPAddress(address).map {
            RetainedAddress(address: $0, evidence: RetainedEvidence(
                map: "m", client: client, firstReturned: Date(timeIntervalSince1970: 0), lastReturned: Date(timeIntervalSince1970: 60),
                age: .seconds(3600), window: .seconds(86_400)))
        }
    }

    @Test func retainedAddressesFollowTheCurrentOnesInTheFamiliesAsked() throws {
        var scenario = try ResultStateMachineTests.planned().scenario
        scenario.ips = .first
        scenario.ipVersion = .v4
        var resolution = Resolution(addresses: [try #require(IPAddress("192.0.2.1"))], source: "HTTPDNS map 'm'", lookupTime: .zero)
        resolution.retained = [Self.retained("192.0.2.7"), Self.retained("2001:db8::7"), Self.retained("192.0.2.8")].compactMap { $0 }
        let planned = ResultExpansion.expand(scenario, strategyOverride: nil, resolution: .success(resolution))
        #expect(planned.map { "\($0.ip?.text ?? "-") \($0.retained == nil ? "current" : "retained")" }
            == ["192.0.2.1 current", "192.0.2.7 retained", "192.0.2.8 retained"])
        #expect(planned[1].retained?.summary == "last returned by 'm' 1h ago")
        #expect(planned[1].retained?.consequence == "apps that cached it in the last 1d still connect here")
    }

    @Test func withClientsAResultPerRetainedAddressNoClientHoldsNow() throws {
        var scenario = try ResultStateMachineTests.planned().scenario
        scenario.ips = .all
        let clients = try ["a", "b"].map { name in
            let address = try #require(IPAddress("10.0.0.1"))
            return ClientPopulation(name: name, address: address, subnet: IPSubnet(covering: address, prefixLength: 24), labels: [])
        }
        var first = Resolution(addresses: [try #require(IPAddress("192.0.2.1"))], source: "s", lookupTime: .zero)
        first.retained = [Self.retained("192.0.2.9", client: "a"), Self.retained("192.0.2.2", client: "a")].compactMap { $0 }
        var second = Resolution(addresses: [try #require(IPAddress("192.0.2.2"))], source: "s", lookupTime: .zero)
        second.retained = [Self.retained("192.0.2.9", client: "b")].compactMap { $0 }
        let combined = Resolution(clients: [
            ClientResolution(client: clients[0], answer: .success(first)), ClientResolution(client: clients[1], answer: .success(second)),
        ])
        let planned = ResultExpansion.expand(scenario, strategyOverride: nil, resolution: .success(combined))
        // 192.0.2.2 is b's current answer: a's memory of it makes no retained result of its own.
        #expect(planned.map { "\($0.ip?.text ?? "-") \($0.clients.map(\.name).joined(separator: ",")) \($0.retained == nil ? "current" : "retained")" }
            == ["192.0.2.1 a current", "192.0.2.2 b current", "192.0.2.9 a,b retained"])
    }
}
