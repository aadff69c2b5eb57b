import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// JSONRecordEncoder's fast paths against Foundation's JSONEncoder (pretty-printed, keys sorted,
/// slashes unescaped): the key order it learns per type, objects that leave that order, nested
/// containers, every integer width, its shortcut for millisecond doubles and its string scan.
@Suite struct JSONRecordEncoderTests {
    /// JSONEncoder's bytes: pretty-printed, or `compact` (no whitespace), keys sorted.
    private static func foundation<Value: Encodable>(_ value: Value, compact: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func written<Value: Encodable>(_ value: Value, by encoder: JSONRecordEncoder, compact: Bool = false) -> String {
        var writer = JSONWriter()
        writer.compact = compact
        encoder.write(value, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `values` one after another with one encoder (the first of each type teaches it
    /// the type's key order, the rest use it) and expects each as JSONEncoder writes it, in
    /// the pretty layout and then, with another encoder, compact.
    private static func expectSameAsFoundation<Value: Encodable>(
        _ values: [Value], encoder: JSONRecordEncoder = JSONRecordEncoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (index, value) in values.enumerated() {
            let expected = try foundation(value)
            let actual = written(value, by: encoder)
            #expect(actual == expected, "value \(index)", sourceLocation: sourceLocation)
        }
        let compactEncoder = JSONRecordEncoder()
        for (index, value) in values.enumerated() {
            let expected = try foundation(value, compact: true)
            let actual = written(value, by: compactEncoder, compact: true)
            #expect(actual == expected, "value \(index), compact", sourceLocation: sourceLocation)
        }
    }

    // MARK: Key order

    /// CodingKeys declared out of key order: members are kept and written in sorted order.
    struct OutOfOrder: Encodable {
        var zulu: String
        var alpha: Int
        var mike: [String]
        var bravo: Double
        var nested: InOrder
        var yankee: Bool

        enum CodingKeys: String, CodingKey {
            case zulu, alpha, mike
            case bravo = "bravo_value"
            case nested, yankee
        }
    }

    /// CodingKeys in key order: members are written as they come.
    struct InOrder: Encodable {
        var a: String
        var b: [Int]
        var c: String

        enum CodingKeys: CodingKey {
            case a, b, c
        }
    }

    private static func outOfOrder(_ index: Int) -> OutOfOrder {
        OutOfOrder(
            zulu: "z\(index)\"\\\n", alpha: index, mike: (0..<index % 3).map { "m\($0)" }, bravo: Double(index) / 7,
            nested: InOrder(a: "a/\(index)", b: Array(0..<(index % 4)), c: "é😀"), yankee: index.isMultiple(of: 2))
    }

    @Test("a type declared out of key order is learnt once, then written from kept values in sorted order")
    func outOfOrderTypes() throws {
        let encoder = JSONRecordEncoder()
        try Self.expectSameAsFoundation((0..<6).map(Self.outOfOrder), encoder: encoder)
        let learnt = try #require(encoder.learntOrder(of: OutOfOrder.CodingKeys.self))
        #expect(learnt.keys == ["zulu", "alpha", "mike", "bravo_value", "nested", "yankee"])
        #expect(!learnt.sorted)
        #expect(encoder.learntOrder(of: InOrder.CodingKeys.self)?.sorted == true)
    }

    @Test("an out-of-order type nested in arrays and in itself keeps each level's values apart")
    func keptValuesPerLevel() throws {
        struct Tree: Encodable {
            var name: String
            var children: [Tree]
            var depth: Int

            enum CodingKeys: String, CodingKey {
                case name, children, depth
            }
        }
        func tree(_ depth: Int) -> Tree {
            Tree(name: "n\(depth)", children: depth == 0 ? [] : [tree(depth - 1), tree(depth - 1)], depth: depth)
        }
        try Self.expectSameAsFoundation([tree(3), tree(0), tree(4)])
    }

    @Test("the report's records declare their keys in key order, so each member is written in place")
    func reportRecordsAreInKeyOrder() {
        let encoder = JSONRecordEncoder()
        let run = Fixture.run(interruptedBy: 2)
        var writer = JSONWriter()
        encoder.write(RunnerRecord(run.result), to: &writer)
        encoder.write(SummaryRecord(run.result, flaky: 0), to: &writer)
        var retried = Fixture.passed
        retried.earlierAttempts = [Attempt(outcome: Fixture.failed.outcome, duration: .seconds(0.5))]
        for suite in run.suites {
            for (index, result) in (suite.results + [retried]).enumerated() {
                let position = ResultPosition(suite: 0, scenario: index, slot: 0)
                let plan = PlanRecord(file: suite.file, name: suite.name)
                ResultRecord.write(
                    result, at: position, plan: plan, redactor: Fixture.redactor, encoder: encoder, to: &writer)
            }
        }
        let types: [any CodingKey.Type] = [
            RunnerRecord.CodingKeys.self, SummaryRecord.CodingKeys.self, AttemptRecord.CodingKeys.self,
            ErrorRecord.CodingKeys.self, SuiteRecord.CodingKeys.self,
        ]
        for type in types.dropLast() {
            #expect(encoder.learntOrder(of: type)?.sorted == true, "\(type)")
        }
        // A suite's, a result's and the evidence's records are written over their keys in the
        // order declared: sorted.
        let declared: [[String]] = [
            SuiteRecord.CodingKeys.allCases.map(\.stringValue), ResultRecord.CodingKeys.allCases.map(\.stringValue),
            Evidence.RecordKey.allCases.map(\.stringValue), HopEvidence.RecordKey.allCases.map(\.stringValue),
            CertificateSummary.RecordKey.allCases.map(\.stringValue), Timings.RecordKey.allCases.map(\.stringValue),
            TLSSession.RecordKey.allCases.map(\.stringValue), ChainCertificate.RecordKey.allCases.map(\.stringValue),
            DNSLookupEvidence.RecordKey.allCases.map(\.stringValue), DNSQuestionEvidence.RecordKey.allCases.map(\.stringValue),
            CaptureRecord.RecordKey.allCases.map(\.stringValue),
        ]
        for keys in declared {
            #expect(keys == keys.sorted(), "\(keys)")
        }
    }

    /// Keys that change from one value to the next, as a custom `encode(to:)` may give them.
    struct Shifting: Encodable {
        var variant: Int

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            let keys: [String] = switch variant % 5 {
            case 0: ["b", "d", "f"]  // sorted: learnt as written in place
            case 1: ["b", "a", "d", "f"]  // a key added before the ones written
            case 2: ["b", "d"]  // one missing
            case 3: ["f", "d", "b"]  // all moved
            default: ["b", "d", "f", "g", "c"]  // added after
            }
            for (index, key) in keys.enumerated() {
                try container.encode("\(key)\(variant)-\(index)", forKey: Key(key))
            }
        }
    }

    @Test("objects that leave their type's learnt order come out sorted all the same", arguments: [0, 3])
    func leavingTheLearntOrder(first: Int) throws {
        try Self.expectSameAsFoundation((first..<(first + 15)).map(Shifting.init))
    }

    /// Members whose values are containers nested in place, and a super encoder.
    struct Nesting: Encodable {
        var tag: Int

        enum CodingKeys: String, CodingKey {
            case zeta, inner, list, alpha, `super`
        }

        enum InnerKeys: String, CodingKey {
            case y, x
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("z\(tag)", forKey: .zeta)
            var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(tag, forKey: .y)
            try inner.encode("x", forKey: .x)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("one")
            var nested = list.nestedContainer(keyedBy: InnerKeys.self)
            try nested.encode(2, forKey: .x)
            try container.encode(tag.isMultiple(of: 2), forKey: .alpha)
            var base = container.superEncoder().singleValueContainer()
            try base.encode("base \(tag)")
        }
    }

    @Test("nested containers and super encoders in an object whose keys come out of order")
    func nestedContainers() throws {
        try Self.expectSameAsFoundation((0..<4).map(Nesting.init))
    }

    @Test("dictionaries, whose keys differ from one to the next")
    func dictionaries() throws {
        let values: [[String: Int]] = [["b": 1, "a": 2], [:], ["c": 3], ["z": 0, "y": 1, "x": 2, "a": 3], ["b": 1, "a": 2]]
        try Self.expectSameAsFoundation(values)
        try Self.expectSameAsFoundation([["k": values]])
    }

    // MARK: Values

    struct Integers: Encodable {
        var int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var float: Float
        var list: [UInt64]
    }

    @Test("every integer width and Float are written as JSONEncoder writes them")
    func integersAndFloats() throws {
        try Self.expectSameAsFoundation([
            Integers(
                int8: .min, int16: .min, int32: .min, int64: .min, uint: .max, uint8: .max, uint16: .max, uint32: .max,
                uint64: .max, float: 0.1, list: [0, .max]),
            Integers(
                int8: .max, int16: .max, int32: .max, int64: .max, uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0,
                float: 3, list: []),
        ])
        try Self.expectSameAsFoundation([[Int.min, Int.max, 0, -1]])
    }

    @Test("the shortcut for whole thousandths writes what the shortest form would, and is taken")
    func millisecondDoubles() {
        var random = SeededGenerator(seed: 0x4D53)
        var values: [Double] = [0, 0.001, 0.01, 0.1, 1, 1.5, 999.999, 1000, 123_456.789, 999_999_999_999.999, 1e12 - 1]
        for _ in 0..<20_000 {
            let seconds = [
                Double.random(in: 0...1, using: &random), Double.random(in: 0...100_000, using: &random),
                Double.random(in: 0...1e9, using: &random), Double.random(in: 0...1e-3, using: &random),
            ].randomElement(using: &random) ?? 0
            values.append(Format.millisecondsValue(seconds))
        }
        var taken = 0
        for value in values {
            var shortcut = ByteBuffer()
            if JSONWriter.millesimal(value, to: &shortcut) {
                taken += 1
                var expected = value.description
                if expected.hasSuffix(".0") { expected.removeLast(2) }
                #expect(String(decoding: shortcut.array, as: UTF8.self) == expected, "\(value)")
            }
        }
        #expect(taken == values.count)
        // Not thousandths, negative, or too large for it: left to `description`.
        for value in [0.0001, 1.0 / 3, -1, -0.0, 1e12, 1e300, .leastNonzeroMagnitude] {
            var shortcut = ByteBuffer()
            #expect(!JSONWriter.millesimal(value, to: &shortcut), "\(value)")
        }
    }

    @Test("strings: the eight-bytes-at-a-time scan finds every byte to escape wherever it sits")
    func stringScan() throws {
        let specials: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\")]
        let plain: [UInt8] = [0x20, UInt8(ascii: "/"), 0x7F, UInt8(ascii: "a"), 0x21, 0x5B, 0x5D]
        var strings: [String] = []
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for special in specials where length > 0 {
                    var bytes = (0..<length).map { plain[$0 % plain.count] }
                    bytes[position] = special
                    strings.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            strings.append(String(repeating: "x", count: length) + "é😀" + String(repeating: "\u{80}", count: length))
        }
        try Self.expectSameAsFoundation(strings)
        try Self.expectSameAsFoundation([strings])
    }
}
