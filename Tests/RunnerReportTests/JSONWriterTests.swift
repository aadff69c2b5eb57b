import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// The streaming JSON report against Foundation: the document reads back into the results it
/// was written from (written again, it is the same), and JSONEncoder lays out the same JSON value (read back as a
/// plain tree, nulls kept) byte for byte as the report did: keys sorted, the envelope
/// pretty-printed and each result compact on a line, strings escaped and numbers written as
/// JSONEncoder writes them.
@Suite struct JSONWriterTests {
    private func expectSameBytes(_ run: RecordedRun, redactor: Redactor, _ label: String) throws {
        let data = try RenderedReport.json(run, redactor: redactor)
        // Read back as `runner merge` reads it and written again, the document is the same.
        let again = try RenderedReport.json(try run.readBack(data), redactor: redactor)
        if again != data {
            let at = zip(again, data).prefix { $0 == $1 }.count
            let context = { (bytes: Data) in String(decoding: bytes[max(0, at - 120)..<min(bytes.count, at + 60)], as: UTF8.self) }
            Issue.record("\(label): the document does not read back the same at \(at):\nread back: \(context(again))\nwritten: \(context(data))")
        }

        let streamed = Array(data)
        let encoded = try Self.laidOutAsJSONEncoder(try JSONDecoder().decode(JSONValue.self, from: data))
        guard streamed != encoded else { return }
        let at = zip(streamed, encoded).prefix { $0 == $1 }.count
        let context = { (bytes: [UInt8]) in String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 80)], as: UTF8.self) }
        Issue.record("\(label): the bytes differ at offset \(at):\nstreamed: \(context(streamed))\nencoder:  \(context(encoded))")
    }

    /// The report's layout, by JSONEncoder: the document pretty-printed, each result compact
    /// on a line of its own. Each result is replaced by a placeholder string, the document
    /// pretty-printed, and each placeholder (on its own line, where the result goes) replaced
    /// by the result as JSONEncoder writes it without whitespace.
    private static func laidOutAsJSONEncoder(_ document: JSONValue) throws -> [UInt8] {
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let compact = JSONEncoder()
        compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard case .object(var members) = document, case .array(var suites)? = members["suites"] else {
            return Array(try pretty.encode(document)) + [UInt8(ascii: "\n")]
        }
        var lines: [String] = []
        for (index, suite) in suites.enumerated() {
            guard case .object(var suiteMembers) = suite, case .array(let results)? = suiteMembers["results"] else { continue }
            suiteMembers["results"] = .array(results.map { result in
                lines.append(String(decoding: (try? compact.encode(result)) ?? Data(), as: UTF8.self))
                return .string("@@result \(lines.count - 1)@@")
            })
            suites[index] = .object(suiteMembers)
        }
        members["suites"] = .array(suites)
        var text = String(decoding: try pretty.encode(JSONValue.object(members)), as: UTF8.self) + "\n"
        for (index, line) in lines.enumerated() {
            text = text.replacingOccurrences(of: "\"@@result \(index)@@\"", with: line)
        }
        return Array(text.utf8)
    }

    @Test("a result is one line in the document, the envelope indented")
    func oneLinePerResult() throws {
        let data = try RenderedReport.json(Fixture.run(), redactor: Fixture.redactor)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let resultLines = lines.filter { $0.hasPrefix("        {\"after\":") }
        #expect(resultLines.count == Fixture.run().suites.map(\.results.count).reduce(0, +))
        for line in resultLines {
            let text = line.hasSuffix(",") ? line.dropLast() : line[...]
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        }
        #expect(lines.first == "{" && lines.contains("  \"runner\" : {"))
    }

    @Test("the fixture run, interrupted or not, reads back the same and is laid out as JSONEncoder does")
    func fixtures() throws {
        try expectSameBytes(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor, "interrupted")
        try expectSameBytes(Fixture.run(), redactor: Fixture.redactor, "not interrupted")
        try expectSameBytes(RecordedRun(suites: [], startedAt: Fixture.start, duration: .seconds(0)), redactor: Fixture.redactor, "no suites")
    }

    @Test("200 seeded random runs: every control character, quotes, Unicode, odd numbers, empty lists")
    func seededRuns() throws {
        var random = SeededGenerator(seed: 0x4A53_4F4E)
        for round in 0..<200 {
            let suites = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.suite(&random) }
            let run = RecordedRun(
                suites: suites, startedAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)),
                duration: Self.seconds(&random), interruptedBy: Bool.random(using: &random) ? 15 : nil)
            try expectSameBytes(run, redactor: Redactor(secrets: ["s3cret"]), "round \(round)")
        }
    }

    @Test("strings are escaped as JSONEncoder does: short forms, lowercase \\u00XX, nothing else")
    func escaping() {
        var writer = JSONWriter()
        writer.string("q\"b\\s/\u{1}\u{8}\u{C}\n\r\t\u{1F}\u{7F}\u{2028}é😀")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""q\"b\\s/\u0001\b\f\n\r\t\u001f"# + "\u{7F}\u{2028}é😀\"")
    }

    // MARK: Random runs

    private static let alphabet: [String] =
        (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
            "\"", "\\", "/", "a", "Z", "0", " ", ":", "\u{7F}", "\u{85}", "é", "\u{2028}", "😀", "👩‍💻", "s3cret", "_", ".",
        ]

    private static func text(_ random: inout SeededGenerator, max: Int = 12) -> String {
        (0..<Int.random(in: 0...max, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "" }.joined()
    }

    private static func optionalText(_ random: inout SeededGenerator) -> String? {
        Bool.random(using: &random) ? text(&random) : nil
    }

    /// Seconds whose milliseconds cover integral, tiny, huge and ordinary values.
    private static func seconds(_ random: inout SeededGenerator) -> Duration {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .zero
        case 1: .seconds(Int.random(in: 1...100, using: &random))
        case 2: .seconds(Double.random(in: 0...0.00001, using: &random))
        case 3: .seconds(Double.random(in: 1e9...1e14, using: &random))
        default: .seconds(Double.random(in: 0...5, using: &random))
        }
    }

    private static func outcome(_ random: inout SeededGenerator) -> Outcome {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .passed
        case 1: .failed((0..<Int.random(in: 0...3, using: &random)).map { _ in
            Problem(subject: text(&random), expected: text(&random), actual: text(&random)) })
        case 2: .errored(TransferError(kind: .tls, message: text(&random), diagnosis: optionalText(&random)))
        default: .skipped(reason: text(&random))
        }
    }

    private static func hop(_ random: inout SeededGenerator) -> HopEvidence {
        var hop = HopEvidence(
            method: text(&random, max: 4), originalURL: text(&random), urlSent: text(&random), hostHeader: text(&random),
            sni: optionalText(&random), pinnedIP: optionalText(&random), strategy: .sniResolve,
            timings: Timings(
                resolve: Bool.random(using: &random) ? seconds(&random) : nil, connect: seconds(&random),
                tls: nil, firstByte: seconds(&random), total: Bool.random(using: &random) ? seconds(&random) : nil))
        hop.connectedIP = optionalText(&random)
        hop.connectedPort = Bool.random(using: &random) ? Int.random(in: 0...65535, using: &random) : nil
        hop.httpVersion = optionalText(&random)
        hop.status = Bool.random(using: &random) ? Int.random(in: 100...599, using: &random) : nil
        if Bool.random(using: &random) {
            hop.certificate = CertificateSummary(
                subject: text(&random), issuer: text(&random),
                notAfter: Bool.random(using: &random) ? Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)) : nil,
                subjectAltNames: (0..<Int.random(in: 0...2, using: &random)).map { _ in text(&random) })
        }
        hop.newConnection = Bool.random(using: &random) ? Bool.random(using: &random) : nil
        hop.bodyLength = Bool.random(using: &random) ? Int.random(in: 0...Int.max, using: &random) : nil
        hop.bodySHA256 = optionalText(&random)
        return hop
    }

    private static func result(_ random: inout SeededGenerator) -> ScenarioResult {
        ScenarioResult(
            scenario: text(&random), strategy: StrategyKind.allCases.randomElement(using: &random) ?? .auto, ip: optionalText(&random),
            tags: (0..<Int.random(in: 0...2, using: &random)).map { _ in text(&random) },
            outcome: outcome(&random),
            evidence: Evidence(
                strategy: StrategyKind.allCases.randomElement(using: &random) ?? .auto, ipSource: text(&random), insecure: Bool.random(using: &random),
                hops: (0..<Int.random(in: 0...2, using: &random)).map { _ in hop(&random) },
                notes: (0..<Int.random(in: 0...2, using: &random)).map { _ in text(&random) }),
            duration: seconds(&random),
            earlierAttempts: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                Attempt(outcome: outcome(&random), duration: seconds(&random)) })
    }

    private static func suite(_ random: inout SeededGenerator) -> RecordedSuite {
        RecordedSuite(
            name: text(&random), file: text(&random), startedAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)),
            duration: seconds(&random), hostname: text(&random),
            // Short names repeat, so duplicate property names (joined by newlines) come up too.
            properties: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Property(name: text(&random, max: 2), value: text(&random)) },
            results: (0..<Int.random(in: 0...4, using: &random)).map { _ in result(&random) })
    }
}

/// Any JSON value, to hand a report back to JSONEncoder as it was read (`null` members kept).
private enum JSONValue: Codable {
    case null, bool(Bool), int(Int), double(Double), string(String)
    case array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
