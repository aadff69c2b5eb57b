/// One thing wrong with a plan, located in its file.
public struct PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String
    /// The offending source line, for the caret snippet (nil when there is none to show).
    public var sourceLine: String?

    public init(location: SourceLocation?, message: String, sourceLine: String? = nil) {
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `FILE:LINE:COL: error: MESSAGE` — the one-line form tests and tools match on.
    public var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }

    /// The one-line form followed by the source line and a caret under the column.
    public var rendered: String {
        guard let location, let sourceLine else { return description }
        let caretPadding = String(repeating: " ", count: max(0, location.column - 1))
        return "\(description)\n    \(sourceLine)\n    \(caretPadding)^"
    }
}

/// Every error found in one plan file, in file order.
public struct PlanErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [PlanError]

    public init(_ errors: [PlanError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.rendered).joined(separator: "\n") }
}
