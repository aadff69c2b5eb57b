import RunnerPlan
import Testing

@testable import RunnerEngine

/// The address an app's SDK hands it from an answer, with ranking off and on, as a pure value.
@Suite("The SDK's pick")
struct SDKPickTests {
    static func addresses(_ texts: String...) -> [IPAddress] { texts.compactMap(IPAddress.init) }
    static func address(_ text: String) throws -> IPAddress { try #require(IPAddress(text)) }
    static let refused = ConnectOutcome.failed(ConnectFailure(code: 111, reason: "connection refused"))

    static func profile(_ kind: SDKProfile.Kind, rankingPort port: Int? = nil) -> SDKProfile {
        SDKProfile(kind: kind, ranking: port.flatMap { kind.defaultRanking(port: $0) })
    }

    static func connects(_ pairs: [(String, ConnectOutcome)]) -> [IPAddress: ConnectOutcome] {
        var connects: [IPAddress: ConnectOutcome] = [:]
        for (text, outcome) in pairs { if let address = IPAddress(text) { connects[address] = outcome } }
        return connects
    }

    static func picked(_ pick: SDKPick) -> [String] { pick.picked.map(\.description) }

    // MARK: Ranking off

    @Test("ranking off: Volcengine hands out the answer's first, whatever its family")
    func volcengineFirst() {
        let pick = SDKPick(answer: Self.addresses("2001:db8::1", "127.0.0.9", "127.0.0.10"), profile: Self.profile(.volcengine))
        #expect(Self.picked(pick) == ["2001:db8::1 (first in the answer; ranking off)"])
        #expect(pick.order == Self.addresses("2001:db8::1", "127.0.0.9", "127.0.0.10"))
    }

    @Test("ranking off: Alibaba hands out ips[0], IPv4 before an IPv6 listed first, IPv6 only without IPv4")
    func alibabaFirstIPv4() {
        for kind in [SDKProfile.Kind.alibabaAndroid, .alibabaIOS] {
            let first = SDKPick(answer: Self.addresses("127.0.0.9", "127.0.0.10", "2001:db8::1"), profile: Self.profile(kind))
            #expect(Self.picked(first) == ["127.0.0.9 (first in the answer; ranking off)"])
            let v6First = SDKPick(answer: Self.addresses("2001:db8::1", "127.0.0.10"), profile: Self.profile(kind))
            #expect(Self.picked(v6First) == ["127.0.0.10 (first IPv4 in the answer; ranking off)"])
            let v6Only = SDKPick(answer: Self.addresses("2001:db8::1", "2001:db8::2"), profile: Self.profile(kind))
            #expect(Self.picked(v6Only) == ["2001:db8::1 (first in the answer; ranking off)"])
        }
    }

    @Test("ranking off: Tencent hands out at most one address per family, IPv4 first")
    func tencentOnePerFamily() {
        for kind in [SDKProfile.Kind.tencentAndroid, .tencentIOS] {
            let pick = SDKPick(
                answer: Self.addresses("2001:db8::1", "127.0.0.9", "2001:db8::2", "127.0.0.10"), profile: Self.profile(kind))
            #expect(Self.picked(pick) == [
                "127.0.0.9 (first IPv4 in the answer; ranking off)", "2001:db8::1 (first IPv6 in the answer; ranking off)",
            ])
            let v4Only = SDKPick(answer: Self.addresses("127.0.0.9", "127.0.0.10"), profile: Self.profile(kind))
            #expect(Self.picked(v4Only) == ["127.0.0.9 (first IPv4 in the answer; ranking off)"])
        }
    }

    @Test("an empty answer picks nothing")
    func emptyAnswer() {
        for kind in SDKProfile.Kind.allCases {
            #expect(SDKPick(answer: [], profile: Self.profile(kind, rankingPort: 443)).picked.isEmpty)
        }
    }

    @Test("connect times are ignored when the app does not rank")
    func measurementsWithoutRanking() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10"), profile: Self.profile(.alibabaIOS),
            connects: Self.connects([("127.0.0.9", Self.refused), ("127.0.0.10", .connected(.milliseconds(1)))]))
        #expect(Self.picked(pick) == ["127.0.0.9 (first in the answer; ranking off)"])
    }

    // MARK: Ranking on

    @Test("ranking on: the fastest connect is first; the order keeps each family in its places")
    func fastestFirst() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "2001:db8::1", "127.0.0.10", "127.0.0.11"),
            profile: Self.profile(.alibabaIOS, rankingPort: 443),
            connects: Self.connects([
                ("127.0.0.9", .connected(.milliseconds(30))), ("127.0.0.10", .connected(.milliseconds(20))),
                ("127.0.0.11", .connected(.milliseconds(5))), ("2001:db8::1", .connected(.milliseconds(1))),
            ]))
        #expect(pick.order == Self.addresses("127.0.0.11", "2001:db8::1", "127.0.0.10", "127.0.0.9"))
        #expect(Self.picked(pick) == ["127.0.0.11 (fastest connect, 5 ms)"])
    }

    @Test("ranking on: equal connect times keep the service's order")
    func tiesKeepServiceOrder() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10", "127.0.0.11"), profile: Self.profile(.tencentIOS, rankingPort: 80),
            connects: Self.connects([
                ("127.0.0.9", .connected(.milliseconds(7))), ("127.0.0.10", .connected(.milliseconds(3))),
                ("127.0.0.11", .connected(.milliseconds(3))),
            ]))
        #expect(pick.order == Self.addresses("127.0.0.10", "127.0.0.11", "127.0.0.9"))
    }

    @Test("a failure scored last comes after every address that connected, however slow")
    func failureScoredLast() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10", "127.0.0.11"), profile: Self.profile(.alibabaAndroid, rankingPort: 443),
            connects: Self.connects([
                ("127.0.0.9", Self.refused), ("127.0.0.10", .connected(.seconds(4))), ("127.0.0.11", Self.refused),
            ]))
        #expect(pick.order == Self.addresses("127.0.0.10", "127.0.0.9", "127.0.0.11"))
        #expect(Self.picked(pick) == ["127.0.0.10 (the only address that connected, in 4000 ms)"])
    }

    @Test("a failure scored as a time comes before slower connects, and after faster ones")
    func failureScoredAsTime() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10", "127.0.0.11"), profile: Self.profile(.tencentAndroid, rankingPort: 8080),
            connects: Self.connects([
                ("127.0.0.9", .connected(.seconds(12))), ("127.0.0.10", Self.refused), ("127.0.0.11", .connected(.seconds(3))),
            ]))
        #expect(pick.order == Self.addresses("127.0.0.11", "127.0.0.10", "127.0.0.9"))
        #expect(Self.picked(pick) == ["127.0.0.11 (fastest connect, 3000 ms)"])

        let failureAhead = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10"), profile: Self.profile(.tencentAndroid, rankingPort: 8080),
            connects: Self.connects([("127.0.0.9", .connected(.seconds(12))), ("127.0.0.10", Self.refused)]))
        #expect(Self.picked(failureAhead) == ["127.0.0.10 (its connect failed, scored 10s, ahead of slower connects)"])
    }

    @Test("every connect failed: the service's first stays first, both scorings")
    func allFailed() {
        for (kind, port) in [(SDKProfile.Kind.alibabaIOS, 80), (.tencentIOS, 80)] {
            let pick = SDKPick(
                answer: Self.addresses("127.0.0.9", "127.0.0.10"), profile: Self.profile(kind, rankingPort: port),
                connects: Self.connects([("127.0.0.9", Self.refused), ("127.0.0.10", Self.refused)]))
            #expect(pick.order == Self.addresses("127.0.0.9", "127.0.0.10"))
            #expect(pick.picked.map(\.reason) == [.allFailed])
            #expect(Self.picked(pick).first == "127.0.0.9 (first in the answer; every ranking connect failed)")
        }
    }

    @Test("fewer addresses than the minimum, or more than the maximum, are not ranked")
    func addressBounds() {
        let single = SDKPick(
            answer: Self.addresses("127.0.0.9"), profile: Self.profile(.alibabaIOS, rankingPort: 80),
            connects: Self.connects([("127.0.0.9", .connected(.milliseconds(2)))]))
        #expect(Self.picked(single) == ["127.0.0.9 (first IPv4 in the answer; 1 IPv4 address, ranking needs 2)"])

        let ten = (1...10).map { "127.0.0.\($0 + 1)" }
        var pairs = ten.map { ($0, ConnectOutcome.connected(.milliseconds(50))) }
        pairs[9].1 = .connected(.milliseconds(1))
        let tooMany = SDKPick(
            answer: ten.compactMap(IPAddress.init), profile: Self.profile(.tencentIOS, rankingPort: 80), connects: Self.connects(pairs))
        #expect(Self.picked(tooMany) == ["127.0.0.2 (first IPv4 in the answer; 10 IPv4 addresses, ranking takes at most 9)"])
        #expect(tooMany.order == ten.compactMap(IPAddress.init))

        let nine = SDKPick(
            answer: ten.dropFirst().compactMap(IPAddress.init), profile: Self.profile(.tencentIOS, rankingPort: 80),
            connects: Self.connects(pairs))
        #expect(Self.picked(nine) == ["127.0.0.11 (fastest connect, 1 ms)"])
    }

    @Test("a family the SDK does not rank keeps the service's order (Tencent Android's IPv6)")
    func unrankedFamily() {
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10", "2001:db8::1", "2001:db8::2"),
            profile: Self.profile(.tencentAndroid, rankingPort: 8080),
            connects: Self.connects([
                ("127.0.0.9", .connected(.milliseconds(9))), ("127.0.0.10", .connected(.milliseconds(2))),
                ("2001:db8::1", .connected(.milliseconds(9))), ("2001:db8::2", .connected(.milliseconds(2))),
            ]))
        #expect(pick.order == Self.addresses("127.0.0.10", "127.0.0.9", "2001:db8::1", "2001:db8::2"))
        #expect(Self.picked(pick) == [
            "127.0.0.10 (fastest connect, 2 ms)", "2001:db8::1 (first IPv6 in the answer; the SDK does not rank IPv6)",
        ])
    }

    @Test("Alibaba iOS ranks each family on its own; Alibaba hands out the IPv4 one")
    func bothFamiliesRanked() {
        let pick = SDKPick(
            answer: Self.addresses("2001:db8::1", "2001:db8::2", "127.0.0.9", "127.0.0.10"),
            profile: Self.profile(.alibabaIOS, rankingPort: 443),
            connects: Self.connects([
                ("127.0.0.9", .connected(.milliseconds(9))), ("127.0.0.10", Self.refused),
                ("2001:db8::1", .connected(.milliseconds(9))), ("2001:db8::2", .connected(.milliseconds(2))),
            ]))
        #expect(pick.order == Self.addresses("2001:db8::2", "2001:db8::1", "127.0.0.9", "127.0.0.10"))
        #expect(Self.picked(pick) == ["127.0.0.9 (the only address that connected, in 9 ms)"])
    }

    @Test("without connect times, ranking keeps the service's order: it applies to the next lookup")
    func notMeasured() {
        let answer = Self.addresses("127.0.0.9", "127.0.0.10")
        let none = SDKPick(answer: answer, profile: Self.profile(.alibabaIOS, rankingPort: 80))
        #expect(Self.picked(none) == ["127.0.0.9 (first IPv4 in the answer; not ranked yet, no connect times)"])
        let partial = SDKPick(
            answer: answer, profile: Self.profile(.alibabaIOS, rankingPort: 80),
            connects: Self.connects([("127.0.0.10", .connected(.milliseconds(1)))]))
        #expect(partial.order == answer)
        #expect(partial.picked.map(\.reason) == [.unranked(.v4, .notMeasured)])
    }

    @Test("a ranking on Volcengine, which cannot rank, is ignored")
    func volcengineDoesNotRank() throws {
        var profile = SDKProfile(kind: .volcengine)
        profile.ranking = SDKProfile.Ranking(
            port: 80, connectTimeout: .seconds(1), failureScore: .last, families: .ipv4AndIPv6, minimumAddresses: 2)
        let pick = SDKPick(
            answer: Self.addresses("127.0.0.9", "127.0.0.10"), profile: profile,
            connects: Self.connects([("127.0.0.9", Self.refused), ("127.0.0.10", .connected(.milliseconds(1)))]))
        #expect(pick.picked == [PickedAddress(address: try Self.address("127.0.0.9"), reason: .firstInAnswer)])
    }
}
