import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// `--shard K/N`: which part a scenario falls in.
@Suite("Shards: a stable part for every scenario", .timeLimit(.minutes(1)))
struct ShardTests {
    static let names = (0..<500).map { "scenario \($0)" }

    @Test func theNotationIsKOfN() {
        #expect(Shard(notation: "2/4") == Shard(index: 2, count: 4))
        #expect(Shard(notation: "1/1")?.description == "1/1")
        for bad in ["0/4", "5/4", "4", "/4", "4/", "a/4", "1/4/4", "+1/4", "-1/4", " 1/4", "1/10001", "١/٤"] {
            #expect(Shard(notation: bad) == nil, "\(bad)")
        }
    }

    /// The rule itself, against SHA-256 computed elsewhere (Python's hashlib): a change to it
    /// would move scenarios between the shards of CI jobs already set up.
    @Test func theNumberIsTheFirstEightBytesOfTheSHA256OfBothNames() {
        #expect(Shard.number(plan: "prod", scenario: "login") == 3_931_961_643_222_818_375)
        #expect(Shard.number(plan: "lab", scenario: "HTTP, IP in the URL and the host in Host") == 7_326_611_779_299_905_560)
        #expect(Shard.number(plan: "", scenario: "") == 7_940_984_811_893_783_192)
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16])
    func everyScenarioIsInExactlyOneShard(_ count: Int) throws {
        let shards = try (1...count).map { try #require(Shard(index: $0, count: count)) }
        for name in Self.names {
            #expect(shards.filter { $0.holds(plan: "prod", scenario: name) }.count == 1, "\(name)")
        }
        // Spread about evenly: no shard more than twice its share, none empty.
        let sizes = shards.map { shard in Self.names.filter { shard.holds(plan: "prod", scenario: $0) }.count }
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 2 * Self.names.count / count }, "\(sizes)")
    }

    @Test func addingOrRemovingAScenarioMovesNoOther() throws {
        let shards = try (1...4).map { try #require(Shard(index: $0, count: 4)) }
        func assignment(_ names: [String]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: names.map { name in
                (name, shards.firstIndex { $0.holds(plan: "prod", scenario: name) } ?? -1)
            })
        }
        let before = assignment(Self.names)
        let after = assignment(["a new scenario"] + Self.names.dropFirst(10) + ["another"])
        for name in Self.names.dropFirst(10) { #expect(before[name] == after[name], "\(name)") }
    }

    @Test func thePlanNameIsPartOfTheKey() throws {
        let shard = try #require(Shard(index: 1, count: 2))
        let inA = Self.names.filter { shard.holds(plan: "a", scenario: $0) }
        let inB = Self.names.filter { shard.holds(plan: "b", scenario: $0) }
        #expect(inA != inB)
    }
}
