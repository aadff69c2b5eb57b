import Foundation

/// A JSON object of a capture as JSONSerialization gives it, read field by field: `null` is the
/// same as absent, and a field of the wrong kind is an error at the entry and the field's path.
struct HARObject {
    let fields: [String: Any]
    /// Where this object is, for errors: `request`, `request.headers[2]`.
    let place: String
    let path: String
    let entryIndex: Int?

    init(_ fields: [String: Any], place: String, path: String, entryIndex: Int?) {
        self.fields = fields
        self.place = place
        self.path = path
        self.entryIndex = entryIndex
    }

    func error(_ message: String) -> HARReadError {
        HARReadError(path: path, entryIndex: entryIndex, message: message)
    }

    private func name(of key: String) -> String { place.isEmpty ? key : "\(place).\(key)" }

    /// The value of `key`, nil when absent or `null`.
    func value(_ key: String) -> Any? {
        guard let value = fields[key], !(value is NSNull) else { return nil }
        return value
    }

    func string(_ key: String) throws(HARReadError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value as? String else { throw error("\(name(of: key)) is not a string") }
        return text
    }

    /// A string, or nil when absent, `null` or empty (Charles and Chrome write `""` for "none").
    func nonEmptyString(_ key: String) throws(HARReadError) -> String? {
        guard let text = try string(key), !text.isEmpty else { return nil }
        return text
    }

    func object(_ key: String) throws(HARReadError) -> HARObject? {
        guard let value = value(key) else { return nil }
        guard let fields = value as? [String: Any] else { throw error("\(name(of: key)) is not an object") }
        return HARObject(fields, place: name(of: key), path: path, entryIndex: entryIndex)
    }

    /// The objects of an array field (absent or `null` is empty); a `null` element is skipped.
    func objects(_ key: String) throws(HARReadError) -> [HARObject] {
        guard let value = value(key) else { return [] }
        guard let elements = value as? [Any] else { throw error("\(name(of: key)) is not a list") }
        var objects: [HARObject] = []
        for (position, element) in elements.enumerated() where !(element is NSNull) {
            guard let fields = element as? [String: Any] else { throw error("\(name(of: key))[\(position)] is not an object") }
            objects.append(HARObject(fields, place: "\(name(of: key))[\(position)]", path: path, entryIndex: entryIndex))
        }
        return objects
    }

    /// A whole number, written as a JSON number or as digits in a string (Firefox's `connection: "443"`).
    func integer(_ key: String) throws(HARReadError) -> Int? {
        guard let value = value(key) else { return nil }
        if let text = value as? String {
            let digits = text.trimmingCharacters(in: .whitespaces)
            // Nine digits at most: beyond any port or status, and far from Int's bounds.
            guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCII), let number = Int(digits) else {
                throw error("\(name(of: key)) '\(text.prefix(40))' is not a number")
            }
            return number
        }
        guard let number = value as? NSNumber else { throw error("\(name(of: key)) is not a number") }
        let double = number.doubleValue
        // Bounded before converting: Int(Double) traps outside Int's range.
        guard double.isFinite, double == double.rounded(), abs(double) < 1e15 else {
            throw error("\(name(of: key)) is not a whole number")
        }
        return Int(double)
    }
}
