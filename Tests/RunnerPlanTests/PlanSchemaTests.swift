import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// docs/plan.schema.json against the decoder: each section's object in the schema has exactly
/// the keys the decoder accepts there and refuses any other, and its word lists are the
/// decoder's. What the schema makes of real plans is `PlanSchemaValidationTests`' part.
@Suite("The plan schema")
struct PlanSchemaTests {
    /// Where each section's object is in the schema, as a JSON pointer. A switch without
    /// `default`: a new section does not compile until it has its place here.
    static func pointer(for section: PlanSection) -> String {
        switch section {
        case .top: ""
        case .defaults: "/$defs/defaults"
        case .scenario: "/$defs/scenario"
        case .request: "/$defs/request"
        case .expect: "/$defs/expect"
        case .headerMatcher: "/$defs/headerMatcher"
        case .valueMatcher: "/$defs/valueMatcher"
        case .body: "/$defs/body"
        case .certificate: "/$defs/certificate"
        case .time: "/$defs/time"
        case .domainMap: "/$defs/domainMap"
        case .httpdns: "/$defs/httpdns"
        case .httpdnsAuth: "/$defs/httpdnsAuth"
        case .httpdnsAnswer: "/$defs/httpdnsAnswer"
        case .capture: "/$defs/capture"
        case .dns: "/$defs/expectDNS"
        case .tls: "/$defs/tls"
        case .tlsExpect: "/$defs/expectTLS"
        case .client: "/$defs/client"
        case .edgeRule: "/$defs/edgeRule"
        case .app: "/$defs/app"
        case .appAndroid: "/$defs/appAndroid"
        case .appIOS: "/$defs/appIOS"
        case .appOkHttp: "/$defs/appOkHttp"
        case .httpdnsSDK: "/$defs/httpdnsSDK"
        case .sdkRank: "/$defs/sdkRank"
        case .sdkCache: "/$defs/sdkCache"
        case .grpc: "/$defs/grpc"
        case .grpcExpect: "/$defs/expectGRPC"
        }
    }

    struct SchemaMissing: Error, CustomStringConvertible {
        var description: String { "docs/plan.schema.json is missing or is not a JSON object" }
    }

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: Repository.planSchema)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw SchemaMissing() }
        return object
    }

    /// The value at a JSON pointer (RFC 6901), nil when there is none.
    static func resolve(_ pointer: String, in root: Any) -> Any? {
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current: Any? = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = current as? [String: Any] {
                current = object[name]
            } else if let array = current as? [Any], let index = Int(name), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// Every `$ref` in the schema, with where it is written.
    static func references(in value: Any, at path: String = "") -> [(path: String, target: String)] {
        if let object = value as? [String: Any] {
            var found: [(path: String, target: String)] = []
            if let target = object["$ref"] as? String { found.append((path, target)) }
            for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                found += references(in: child, at: path + "/" + key)
            }
            return found
        }
        if let array = value as? [Any] {
            return array.enumerated().flatMap { references(in: $0.element, at: path + "/\($0.offset)") }
        }
        return []
    }

    @Test("the schema is JSON Schema 2020-12 and every $ref in it points at something")
    func referencesResolve() throws {
        let schema = try Self.schema()
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let references = Self.references(in: schema)
        #expect(references.count > 20)
        for reference in references {
            #expect(reference.target.hasPrefix("#"), "\(reference.path): only references inside the schema")
            #expect(
                Self.resolve(String(reference.target.dropFirst()), in: schema) != nil,
                "\(reference.path): \(reference.target) points at nothing")
        }
    }

    @Test("each section's object lists exactly the keys the decoder accepts there, and refuses others", arguments: PlanSection.allCases)
    func sectionMatchesDecoder(_ section: PlanSection) throws {
        let schema = try Self.schema()
        let pointer = Self.pointer(for: section)
        let object = try #require(Self.resolve(pointer, in: schema) as? [String: Any], "no object at '\(pointer)'")
        #expect(object["type"] as? String == "object", "\(section.rawValue) at '\(pointer)'")
        #expect(object["additionalProperties"] as? Bool == false, "\(section.rawValue) at '\(pointer)' must refuse unknown keys")
        let properties = try #require(object["properties"] as? [String: Any], "\(section.rawValue): no properties")
        let inSchema = Set(properties.keys)
        let accepted = Set(section.keys.names)
        #expect(accepted.subtracting(inSchema).sorted() == [], "accepted in \(section.rawValue) but not in the schema")
        #expect(inSchema.subtracting(accepted).sorted() == [], "in the schema's \(section.rawValue) but not accepted")
        for required in object["required"] as? [String] ?? [] {
            #expect(inSchema.contains(required), "\(section.rawValue) requires '\(required)', which it does not list")
        }
        // A description on every key (or on what it refers to), for the editor's hover.
        for (key, value) in properties {
            let property = try #require(value as? [String: Any])
            let target = (property["$ref"] as? String).flatMap { Self.resolve(String($0.dropFirst()), in: schema) }
            let described = property["description"] != nil || (target as? [String: Any])?["description"] != nil
            #expect(described, "\(section.rawValue).\(key) has no description")
        }
    }

    /// The word lists an editor completes from, held to the decoder's own.
    @Test("the schema's word lists are the decoder's", arguments: [
        ("/$defs/strategyName/anyOf/0", StrategyKind.allCases.map(\.rawValue)),
        ("/$defs/httpdns/properties/format/anyOf/0", HTTPDNSSpec.Format.Name.allCases.map(\.rawValue)),
        ("/$defs/httpdnsAuth/properties/scheme/anyOf/0", HTTPDNSAuth.Scheme.allCases.map(\.rawValue)),
        ("/$defs/httpdns/properties/method/anyOf/0", HTTPDNSSpec.DoHMethod.allCases.map(\.rawValue)),
        ("/$defs/httpdnsSDK/properties/profile/anyOf/0", SDKProfile.Kind.allCases.map(\.rawValue)),
    ])
    func wordListsMatchDecoder(pointer: String, words: [String]) throws {
        let schema = try Self.schema()
        let list = try #require(Self.resolve(pointer, in: schema) as? [String: Any], "no schema at '\(pointer)'")
        let listed = try #require(list["enum"] as? [Any], "no enum at '\(pointer)'")
        #expect(Set(listed.compactMap { $0 as? String }) == Set(words), "'\(pointer)'")
        if let descriptions = list["markdownEnumDescriptions"] as? [Any] {
            #expect(descriptions.count == listed.count, "'\(pointer)': one description per word")
        }
    }

    @Test("the pointer reader follows objects and arrays and unescapes ~0 and ~1")
    func pointerReader() {
        let document: [String: Any] = ["a": ["b/c": [10, ["~d": 20]]]]
        #expect(Self.resolve("/a/b~1c/0", in: document) as? Int == 10)
        #expect(Self.resolve("/a/b~1c/1/~0d", in: document) as? Int == 20)
        #expect(Self.resolve("/a/missing", in: document) == nil)
        #expect(Self.resolve("/a/b~1c/9", in: document) == nil)
    }
}
