import Foundation

/// A binary plist's value as `PropertyListDecoder` reads it: only the plist types. Read before
/// PropertyListSerialization, which on Linux crashes bridging a binary plist that holds a set
/// (found by fuzzing): the decoder refuses it. The values themselves are PropertyListSerialization's:
/// the decoder keeps one of a dictionary's duplicate keys at random (also found by fuzzing).
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
        let container = try decoder.singleValueContainer()
        // Each kind is tried in turn: the decoder says which one the value is by accepting it.
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
        } else if let value = try? container.decode([String: PlistValue].self) {
            self = .dictionary(value)
        } else if let value = try? container.decode([PlistValue].self) {
            self = .array(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a property list value")
        }
    }
}
