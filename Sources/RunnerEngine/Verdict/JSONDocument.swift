import Foundation
import RunnerPlan

/// A response body parsed as JSON, in the plan's own `JSONValue` terms.
struct JSONDocument: Equatable {
    var root: JSONValue

    /// Parses `data` with JSONSerialization (top-level scalars allowed); nil when it is not JSON.
    init?(parsing data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        root = Self.value(of: object)
    }

    init(root: JSONValue) {
        self.root = root
    }

    /// The value at `path`, or nil when a member is missing, an index is out of range, or a
    /// step goes into a value of the wrong kind.
    func value(at path: JSONPath) -> JSONValue? {
        var current = root
        for component in path.components {
            switch (component, current) {
            case (.member(let name), .object(let members)):
                guard let member = members[name] else { return nil }
                current = member
            case (.index(let index), .array(let items)):
                guard items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Foundation's JSON objects as `JSONValue`.
    ///
    /// Booleans are the trap: JSONSerialization hands them out as NSNumber, and on Linux
    /// `NSNumber(value: 1) is Bool` is true, so `as? Bool` cannot tell `1` from `true`. Only
    /// the boolean NSNumber's own class (`__NSCFBoolean`, the class of `NSNumber(value: true)`)
    /// does, on Linux and Darwin alike.
    static func value(of object: Any) -> JSONValue {
        switch object {
        case is NSNull:
            return .null
        case let text as String:
            return .string(text)
        case let number as NSNumber:
            if isBoolean(number) { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let items as [Any]:
            return .array(items.map(value(of:)))
        case let members as [String: Any]:
            return .object(members.mapValues(value(of:)))
        default:
            // JSONSerialization produces nothing else; keep the evaluation total regardless.
            return .string(String(describing: object))
        }
    }

    private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

    static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == booleanClass
    }
}
