/// One thing wrong with a plan, located in its file; or, as a note, one thing a check could not
/// look at (`runner check --no-env`: a value only the environment makes).
public struct PlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An error stops the plan; a note does not.
    public enum Severity: String, Sendable, Hashable {
        case error
        case note
    }

    public var severity: Severity
    public var location: SourceLocation?
    public var message: String
    /// The offending source line, for the caret snippet (nil when there is none to show).
    public var sourceLine: String?
    /// Where the token at `location` ends (its last character), for tools that underline it.
    public var end: SourcePosition?
    /// Where in the plan `location` is, as keys and list indices (`scenarios[2].request.url`):
    /// a handle that survives lines moving (nil outside the document's tree, a YAML syntax error).
    public var keyPath: String?

    public init(location: SourceLocation?, message: String, sourceLine: String? = nil, severity: Severity = .error) {
        self.severity = severity
        self.location = location
        // A plan's double-quoted scalars can hold any control character (`"\e[31m"`): quoted
        // back in a message, it must show as text, not drive the terminal (found by fuzzing).
        self.message = message.withVisibleControls
        self.sourceLine = sourceLine.map(\.withVisibleControls)
    }

    /// `FILE:LINE:COL: error: MESSAGE` — the one-line form tests and tools match on.
    public var description: String {
        guard let location else { return "\(severity.rawValue): \(message)" }
        return "\(location): \(severity.rawValue): \(message)"
    }

    /// The one-line form followed by the source line and a caret under the column.
    public var rendered: String {
        guard let location, let sourceLine else { return description }
        let caretPadding = String(repeating: " ", count: max(0, location.column - 1))
        return "\(description)\n    \(sourceLine)\n    \(caretPadding)^"
    }
}

/// Every error found in one plan file, in file order (and, from a check without the environment,
/// its notes).
public struct PlanErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [PlanError]

    public init(_ errors: [PlanError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.rendered).joined(separator: "\n") }
}

/// A 1-based line and column (in characters, as libyaml counts them) in a plan file.
public struct SourcePosition: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
