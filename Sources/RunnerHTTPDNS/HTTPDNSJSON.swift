import Foundation
import RunnerPlan

/// Strict reading of the JSON formats' fields: the parsers ask for a type and get it or a reason.
enum HTTPDNSJSON {
    /// The body's top-level object, or nil when the body is not a JSON object.
    static func object(_ body: Data) -> [String: Any]? {
        guard !body.isEmpty, let parsed = try? JSONSerialization.jsonObject(with: body, options: []) else { return nil }
        return parsed as? [String: Any]
    }

    /// A member's value, with JSON `null` read as absent (services write `"ipsv6": null`).
    static func member(_ object: [String: Any], _ key: String) -> Any? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        return value
    }

    /// An integral JSON number (not a boolean), saturating at the ends of `Int` so range checks
    /// still reject it; nil for anything else.
    static func integer(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, !(value is String), !JSONDocument.isBoolean(number) else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double == double.rounded(.towardZero) else { return nil }
        if let exact = Int(exactly: double) { return exact }
        return double < 0 ? Int.min : Int.max
    }

    /// A TTL member: absent is nil, otherwise an integer within 0…one year.
    static func ttl(_ object: [String: Any], _ key: String) throws(HTTPDNSMalformed) -> Int? {
        guard let value = member(object, key) else { return nil }
        guard let seconds = integer(value) else { throw HTTPDNSMalformed("'\(key)' is not an integer") }
        guard HTTPDNSFields.isPlausibleTTL(seconds) else {
            throw HTTPDNSMalformed("'\(key)' \((value as? NSNumber)?.stringValue ?? String(seconds)) out of range")
        }
        return seconds
    }

    /// A list of strings, or nil when the value is anything else.
    static func strings(_ value: Any) -> [String]? {
        guard let items = value as? [Any] else { return nil }
        var strings: [String] = []
        for item in items {
            guard let string = item as? String else { return nil }
            strings.append(string)
        }
        return strings
    }
}
