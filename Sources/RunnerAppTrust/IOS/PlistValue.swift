import Foundation

/// A value of a binary plist as `PropertyListDecoder` reads it. PropertyListSerialization on
/// Linux crashes bridging a binary plist that holds a set (found by fuzzing, even one shadowed by
/// a duplicate key), so binary plists are read by the decoder alone, which refuses what is not a
/// plist type. Its one flaw: of a key written twice in a dictionary it keeps either value (per-
/// instance hashing; found by fuzzing too), where PropertyListSerialization keeps the first.
/// Converted to the values PropertyListSerialization gives, so both forms are read by the same code.
indirect enum PlistValue: Decodable {
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    init(from decoder: any Decoder) throws {
        let budget = PlistValueBudget.key.flatMap { decoder.userInfo[$0] as? PlistValueBudget }
        if let budget {
            // No codingPath in the error: building it walks the whole depth.
            guard budget.enter() else { throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "past the limits")) }
        }
        defer { budget?.leave() }
        // A collection is told by the container the decoder gives for it, and decoded once: trying
        // one kind after another over a collection's children costs 2^depth on a hostile file.
        if let keyed = try? decoder.container(keyedBy: PlistKey.self) {
            var values: [String: PlistValue] = [:]
            for key in keyed.allKeys { values[key.stringValue] = try keyed.decode(PlistValue.self, forKey: key) }
            self = .dictionary(values)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var values: [PlistValue] = []
            while !unkeyed.isAtEnd { values.append(try unkeyed.decode(PlistValue.self)) }
            self = .array(values)
            return
        }
        let container = try decoder.singleValueContainer()
        // Each scalar kind is tried in turn: the decoder says which one the value is by accepting it.
        if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a property list value")
        }
    }

    /// The value as PropertyListSerialization gives it (`[String: Any]`, `[Any]`, `String`, `Bool`…).
    var foundationValue: Any {
        switch self {
        case .boolean(let value): return value
        case .integer(let value): return value
        case .real(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .array(let values): return values.map(\.foundationValue)
        case .dictionary(let values): return values.mapValues(\.foundationValue)
        }
    }
}
