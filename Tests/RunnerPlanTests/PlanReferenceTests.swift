import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// docs/plan-format.md against the decoder: every key the decoder accepts has a line in the
/// reference's table for its section, and every key in a table is accepted where it says.
@Suite("The plan reference")
struct PlanReferenceTests {
    /// The key tables: `<!-- keys: SECTION -->`, then a Markdown table whose rows start with
    /// the key in backticks.
    struct KeyTable {
        var section: String
        var line: Int
        var keys: [String]
    }

    static func keyTables(in text: String) -> [KeyTable] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var tables: [KeyTable] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- keys:"), trimmed.hasSuffix("-->") else { continue }
            let section = trimmed.dropFirst("<!-- keys:".count).dropLast("-->".count)
                .trimmingCharacters(in: .whitespaces)
            var keys: [String] = []
            // The header row and the separator row, then one row per key, up to the first non-row.
            for row in lines[(index + 1)...].dropFirst(2) {
                guard row.hasPrefix("|") else { break }
                let firstCell = row.dropFirst().prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
                keys.append(firstCell.hasPrefix("`") && firstCell.hasSuffix("`")
                    ? String(firstCell.dropFirst().dropLast()) : firstCell)
            }
            tables.append(KeyTable(section: section, line: index + 1, keys: keys))
        }
        return tables
    }

    static let reference: String = (try? String(contentsOf: Repository.planReference, encoding: .utf8)) ?? ""

    @Test("the reference has exactly one key table per section, and no other")
    func oneTablePerSection() throws {
        try #require(!Self.reference.isEmpty, "docs/plan-format.md is missing")
        let tables = Self.keyTables(in: Self.reference)
        let sections = PlanSection.allCases.map(\.rawValue)
        #expect(tables.map(\.section).sorted() == sections.sorted())
        for table in tables {
            #expect(Set(table.keys).count == table.keys.count, "a key is listed twice in '\(table.section)' (line \(table.line))")
        }
    }

    @Test("each section's table lists exactly the keys the decoder accepts there", arguments: PlanSection.allCases)
    func tableMatchesDecoder(_ section: PlanSection) throws {
        let table = try #require(Self.keyTables(in: Self.reference).first { $0.section == section.rawValue })
        let accepted = Set(section.keys.names)
        let documented = Set(table.keys)
        #expect(accepted.subtracting(documented).sorted() == [], "accepted in \(section.rawValue) but not in the reference")
        #expect(documented.subtracting(accepted).sorted() == [], "in the reference's \(section.rawValue) table but not accepted")
    }

    /// A plan with `key: x` written in `section`: the decoder must not call it unknown (its
    /// value may well be wrong, which is another error).
    static func plan(with key: String, in section: PlanSection) -> String {
        let request = "request: {url: 'https://api.example.com/'}"
        func scenario(_ extra: String) -> String { "scenarios:\n  - {name: a, \(request)\(extra)}\n" }
        func sdkMap(_ inside: String) -> String {
            "version: 1\ndomains: {m: {httpdns: {format: dnspod, url: 'http://192.0.2.1/d?dn={host}', sdk: {\(inside)}}}}\n" + scenario("")
        }
        func expect(_ inside: String) -> String { scenario(", expect: {\(inside)}") }
        let item = "\(key): x"
        switch section {
        case .top: return "version: 1\n\(item)\n" + scenario("")
        case .defaults: return "version: 1\ndefaults: {\(item)}\n" + scenario("")
        case .scenario: return "version: 1\n" + scenario(", \(item)")
        case .request:
            return "version: 1\nscenarios:\n  - {name: a, request: {url: 'https://api.example.com/', \(item)}}\n"
        case .expect: return "version: 1\n" + expect(item)
        case .headerMatcher: return "version: 1\n" + expect("headers: {Accept: {\(item)}}")
        case .valueMatcher: return "version: 1\n" + expect("certificate: {issuer: {\(item)}}")
        case .body: return "version: 1\n" + expect("body: {\(item)}")
        case .certificate: return "version: 1\n" + expect("certificate: {\(item)}")
        case .time: return "version: 1\n" + expect("time: {\(item)}")
        case .domainMap: return "version: 1\ndomains: {m: {\(item)}}\n" + scenario("")
        case .httpdns: return "version: 1\ndomains: {m: {httpdns: {\(item)}}}\n" + scenario("")
        case .httpdnsAuth:
            return "version: 1\ndomains: {m: {httpdns: {format: dnspod, url: 'http://192.0.2.1/d?dn={host}', auth: {\(item)}}}}\n"
                + scenario("")
        case .httpdnsAnswer:
            return "version: 1\ndomains: {m: {httpdns: {format: json, url: 'http://192.0.2.1/r?n={host}', answer: {\(item)}}}}\n"
                + scenario("")
        case .capture: return "version: 1\n" + scenario(", capture: {token: {\(item)}}")
        case .dns: return "version: 1\n" + expect("dns: {\(item)}")
        case .tls: return "version: 1\n" + scenario(", tls: {\(item)}")
        case .tlsExpect: return "version: 1\n" + expect("tls: {\(item)}")
        case .client: return "version: 1\nclients: {c: {\(item)}}\n" + scenario("")
        case .edgeRule: return "version: 1\nclients: {c: {ip: 192.0.2.1}}\n" + expect("edges: [{\(item)}]")
        case .app: return "version: 1\napps: {a: {\(item)}}\n" + scenario("")
        case .appAndroid: return "version: 1\napps: {a: {android: {\(item)}}}\n" + scenario("")
        case .appIOS: return "version: 1\napps: {a: {ios: {\(item)}}}\n" + scenario("")
        case .appOkHttp: return "version: 1\napps: {a: {okhttp: {\(item)}}}\n" + scenario("")
        case .httpdnsSDK: return sdkMap(item)
        case .sdkRank: return sdkMap("profile: alibaba-ios, rank: {\(item)}")
        case .sdkCache: return sdkMap("profile: alibaba-ios, cache: {\(item)}")
        case .grpc:
            return "version: 1\nscenarios:\n  - {name: a, request: {url: 'https://api.example.com', grpc: {\(item)}}}\n"
        case .grpcExpect:
            return "version: 1\nscenarios:\n  - {name: a, request: {url: 'https://api.example.com', grpc: {health: ''}}, expect: {grpc: {\(item)}}}\n"
        }
    }

    static func unknownKeyErrors(_ key: String, in section: PlanSection) throws -> [String] {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", plan(with: key, in: section))
        return loadErrors(path).map(\.message).filter { $0.hasPrefix("unknown key '\(key)'") }
    }

    @Test("every key of a table is accepted in the section the table names", arguments: PlanSection.allCases)
    func documentedKeysAreAccepted(_ section: PlanSection) throws {
        let table = try #require(Self.keyTables(in: Self.reference).first { $0.section == section.rawValue })
        #expect(!table.keys.isEmpty)
        for key in table.keys {
            #expect(try Self.unknownKeyErrors(key, in: section) == [], "'\(key)' in \(section.rawValue)")
        }
    }

    /// Guards the guard: the plans above reach each section, so an unknown key is reported there.
    @Test("a key no section has is reported in each section's plan", arguments: PlanSection.allCases)
    func anUndocumentedKeyIsRejected(_ section: PlanSection) throws {
        #expect(try Self.unknownKeyErrors("not_a_key", in: section).count == 1)
    }

    /// The fenced YAML blocks of the reference that are whole plans (they start with `version:`).
    static func examplePlans(in text: String) -> [String] {
        var plans: [String] = []
        var block: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if block == nil, line.hasPrefix("```yaml") {
                block = []
            } else if let lines = block, line.hasPrefix("```") {
                if lines.first?.hasPrefix("version:") == true { plans.append(lines.joined(separator: "\n") + "\n") }
                block = nil
            } else {
                block?.append(line)
            }
        }
        return plans
    }

    @Test("every whole plan the reference shows loads as it is written")
    func examplesLoad() throws {
        let plans = Self.examplePlans(in: Self.reference)
        try #require(!plans.isEmpty, "the reference shows no complete plan")
        for plan in plans {
            let workspace = try PlanWorkspace()
            _ = try workspace.write("certs/ca.pem", "x")
            let path = try workspace.write("example.yaml", plan)
            #expect(loadErrors(path, environment: ["API_TOKEN": "t"]).map(\.description) == [])
        }
    }

    @Test("the table reader reads keys, stops at the table's end, and skips header and separator")
    func tableReader() {
        let text = """
            intro
            <!-- keys: request -->
            | key | type | default | meaning |
            | --- | --- | --- | --- |
            | `url` | string | — | where |
            | `method` | string | `GET` | how |

            | `not` | a | key | row |
            """
        let tables = Self.keyTables(in: text)
        #expect(tables.count == 1)
        #expect(tables.first?.section == "request")
        #expect(tables.first?.keys == ["url", "method"])
    }
}
