/// A `DecodingError` as a report reader tells it: where in the document, and what.
enum DecodingProblem {
    static func describe(_ error: DecodingError) -> (field: String?, detail: String) {
        switch error {
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(name(of: type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected \(name(of: type)), found null")
        case .keyNotFound(let key, let context):
            return (path(context.codingPath), "the key '\(key.stringValue)' is missing")
        case .dataCorrupted(let context):
            let path = path(context.codingPath)
            return (path, path == nil ? "not JSON" : context.debugDescription)
        @unknown default:
            return (nil, "\(error)")
        }
    }

    /// `suites[0].results[3].strategy`; nil at the top.
    private static func path(_ keys: [any CodingKey]) -> String? {
        guard !keys.isEmpty else { return nil }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object or a list"
        }
    }
}
