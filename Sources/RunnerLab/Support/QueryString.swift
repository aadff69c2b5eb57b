import Foundation

/// Splits a URL query ("a=1&b=two%20words") into decoded name/value pairs, in order.
enum QueryString {
    /// A query component that is not valid percent-encoding.
    struct MalformedComponent: Error, CustomStringConvertible {
        let component: String
        var description: String { "malformed percent-encoding in query component \"\(component)\"" }
    }

    static func pairs(_ query: String?) throws -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return try query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(parts[0])
            let value = parts.count > 1 ? try decode(parts[1]) : ""
            return (name, value)
        }
    }

    /// Form-style decoding: "+" is a space, then percent-escapes.
    private static func decode(_ component: Substring) throws -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw MalformedComponent(component: String(component))
        }
        return decoded
    }
}
