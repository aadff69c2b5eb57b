import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("Result expansion: one result per (strategy, IP)", .timeLimit(.minutes(3)))
struct ResultExpansionTests {
    func scenario(
        url: String = "https://api.example.com/", strategies: [StrategyKind], ips: IPSelection = .first,
        ipVersion: IPVersionPreference = .any
    ) throws -> Scenario {
        let request = RequestSpec(method: "GET", url: try #require(PlanURL.parse(url)), headers: [], body: nil)
        return Scenario(
            name: "s", location: SourceLocation(file: "p.yaml", line: 1, column: 1), tags: [], domainMap: "m",
            strategies: strategies, ips: ips, ipVersion: ipVersion, settings: TransferSettings(), request: request,
            expect: Expectations())
    }

    let answer: Result<Resolution, TransferError> = .success(Resolution(
        addresses: ["2001:db8::1", "192.0.2.1", "192.0.2.2"].compactMap(IPAddress.init), source: "static map 'm'",
        lookupTime: .seconds(0)))

    @Test func firstTakesIPv4FirstUnderAny() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.sniResolve]), strategyOverride: nil, resolution: answer)
        #expect(planned.map { $0.ip?.text } == ["192.0.2.1"])
    }

    @Test func allFansOutIPv4ThenIPv6() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.sniResolve], ips: .all), strategyOverride: nil, resolution: answer)
        #expect(planned.map { $0.ip?.text } == ["192.0.2.1", "192.0.2.2", "2001:db8::1"])
    }

    @Test func strategiesTimesIPs() throws {
        let planned = ResultExpansion.expand(
            try scenario(strategies: [.trustOverride, .sniResolve, .system], ips: .all), strategyOverride: nil,
            resolution: answer)
        #expect(planned.map { "\($0.strategy.rawValue) \($0.ip?.text ?? "-")" } == [
            "trust-override 192.0.2.1", "trust-override 192.0.2.2", "trust-override 2001:db8::1",
            "sni-resolve 192.0.2.1", "sni-resolve 192.0.2.2", "sni-resolve 2001:db8::1",
            "system -",
        ])
    }

    /// Every order of two IPv4 and two IPv6 addresses, under each preference, against the
    /// definition (a stable partition, IPv4 first under `any`): an answer already in order is
    /// handed on as it is, and the others must still be reordered.
    @Test func orderedIsAStablePartitionWhateverTheAnswersOrder() throws {
        let pool = ["192.0.2.1", "192.0.2.2", "2001:db8::1", "2001:db8::2"].compactMap(IPAddress.init)
        func permutations(_ items: [IPAddress]) -> [[IPAddress]] {
            guard let first = items.first else { return [[]] }
            return permutations(Array(items.dropFirst())).flatMap { rest in
                (0...rest.count).map { var order = rest; order.insert(first, at: $0); return order }
            }
        }
        var checked = 0
        for length in 0...pool.count {
            for order in permutations(Array(pool.prefix(length))) + permutations(Array(pool.suffix(length))) {
                let resolution = Resolution(addresses: order, source: "static map 'm'", lookupTime: .zero)
                let v4 = order.filter { $0.family == .v4 }, v6 = order.filter { $0.family == .v6 }
                #expect(resolution.ordered(for: .v4) == v4, "\(order)")
                #expect(resolution.ordered(for: .v6) == v6, "\(order)")
                #expect(resolution.ordered(for: .any) == v4 + v6, "\(order)")
                checked += 1
            }
        }
        #expect(checked == 2 * (1 + 1 + 2 + 6 + 24))
    }

    @Test func ipVersionSixKeepsOnlyIPv6() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.sniResolve], ips: .all, ipVersion: .v6), strategyOverride: nil, resolution: answer)
        #expect(planned.map { $0.ip?.text } == ["2001:db8::1"])
    }

    @Test func autoAndItsConcreteStrategyRunOnce() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.auto, .sniResolve]), strategyOverride: nil, resolution: answer)
        #expect(planned.map(\.strategy) == [.sniResolve])
    }

    @Test func aMissingHostIsOneResolveErrorPerStrategy() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.trustOverride, .sniResolve]), strategyOverride: nil,
            resolution: .failure(TransferError(kind: .resolve, message: "host 'api.example.com' is not in static map 'm'")))
        #expect(planned.count == 2)
        #expect(planned.allSatisfy { $0.resolveError?.kind == .resolve && $0.ip == nil })
    }

    @Test func noAddressOfTheWantedFamilyIsAnError() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.sniResolve], ipVersion: .v6), strategyOverride: nil,
            resolution: .success(Resolution(addresses: [IPAddress("192.0.2.1")].compactMap { $0 }, source: "static map 'm'", lookupTime: .seconds(0))))
        #expect(planned.first?.resolveError?.message == "static map 'm' has no IPv6 address for 'api.example.com' (it has 192.0.2.1)")
    }

    @Test func overrideReplacesTheScenarioStrategies() throws {
        let planned = ResultExpansion.expand(try scenario(strategies: [.trustOverride, .sniResolve]), strategyOverride: .system, resolution: nil)
        #expect(planned.map(\.strategy) == [.system])
    }
}
