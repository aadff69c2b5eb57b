import Foundation

/// A response body parsed as JSON, in the plan's own `JSONValue` terms: what `expect.body.json`
/// checks and what a `format: json` HTTPDNS answer is read from.
package struct JSONDocument: Equatable, Sendable {
    package var root: JSONValue

    /// Parses `data` with JSONSerialization (top-level scalars allowed); nil when it is not JSON.
    package init?(parsing data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        root = Self.value(of: object)
    }

    package init(root: JSONValue) {
        self.root = root
    }

    /// The value at `path`, or nil when a member is missing, an index is out of range, a step
    /// goes into a value of the wrong kind, or the path has a `[*]` (it selects many).
    package func value(at path: JSONPath) -> JSONValue? {
        let selected = select(path)
        return selected.count == 1 && !path.components.contains(.everyElement) ? selected[0] : nil
    }

    /// Every value `path` selects, in document order: `[*]` steps into each element of an
    /// array; a missing member, an index out of range or a step into the wrong kind selects
    /// nothing on that branch.
    package func select(_ path: JSONPath) -> [JSONValue] {
        var current = [root]
        for component in path.components {
            var next: [JSONValue] = []
            for value in current {
                switch (component, value) {
                case (.member(let name), .object(let members)):
                    if let member = members[name] { next.append(member) }
                case (.index(let index), .array(let items)):
                    if items.indices.contains(index) { next.append(items[index]) }
                case (.everyElement, .array(let items)):
                    next += items
                case (.member, _), (.index, _), (.everyElement, _):
                    continue
                }
            }
            current = next
        }
        return current
    }

    /// The one value at `path` in the JSON text `data`, converting only that value (a capture
    /// reads one value of a login's answer; converting the whole document cost more than
    /// parsing it): `.notJSON`, `.missing` or the value. A path with `[*]` selects none.
    package static func value(at path: JSONPath, in data: Data) -> Lookup {
        guard var current = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .notJSON
        }
        for component in path.components {
            switch component {
            case .member(let name):
                guard let members = current as? [String: Any], let member = members[name] else { return .missing }
                current = member
            case .index(let index):
                guard let items = current as? [Any], items.indices.contains(index) else { return .missing }
                current = items[index]
            case .everyElement:
                return .missing
            }
        }
        return .found(value(of: current))
    }

    /// What `value(at:in:)` found.
    package enum Lookup: Equatable {
        case notJSON
        case missing
        case found(JSONValue)
    }

    /// Foundation's JSON objects as `JSONValue`.
    ///
    /// Booleans are the trap: JSONSerialization hands them out as NSNumber, and on Linux
    /// `NSNumber(value: 1) is Bool` is true, so `as? Bool` cannot tell `1` from `true`. Only
    /// the boolean NSNumber's own class (`__NSCFBoolean`, the class of `NSNumber(value: true)`)
    /// does, on Linux and Darwin alike.
    package static func value(of object: Any) -> JSONValue {
        // A string first: what a capture mostly reads, and asking whether a string is an
        // NSNull first costs a class check that fails.
        if let text = object as? String { return .string(text) }
        switch object {
        case is NSNull:
            return .null
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

    package static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == booleanClass
    }
}
