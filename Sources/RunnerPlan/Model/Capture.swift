/// A value taken from each result's final response, for the scenarios that run after it
/// (`capture:`), as `${capture:NAME}`.
public struct Capture: Sendable, Equatable {
    /// Where in the response the value is.
    public enum Source: Sendable, Equatable {
        /// A JSONPath as in `expect.body.json`; only a scalar (string, number, boolean) is taken.
        case json(JSONPath)
        /// The first value of the header.
        case header(String)
        /// A regular expression with one group (checked to compile and to have exactly one);
        /// the group's text of the first match.
        case body(String)
    }

    public var name: String
    public var source: Source
    /// Masked like a `${secret:…}` on every channel once captured.
    public var secret: Bool
    public var location: SourceLocation

    public init(name: String, source: Source, secret: Bool, location: SourceLocation) {
        self.name = name
        self.source = source
        self.secret = secret
        self.location = location
    }
}

/// Where a `${capture:NAME}` of a scenario's request takes its value: the decoded text holds
/// nothing there, and the run inserts the value at `offset` (UTF-8 bytes) of that field.
public struct CaptureUse: Sendable, Equatable {
    /// The request field a capture goes into.
    public enum Field: Sendable, Equatable {
        /// The URL's path and query (`PlanURL.pathAndQuery`): never its scheme, host or port.
        case pathAndQuery
        /// The value of the request's header with this name (lower-cased).
        case header(String)
        /// The text body (`body:`).
        case body
    }

    public var name: String
    public var field: Field
    public var offset: Int
    public var location: SourceLocation

    public init(name: String, field: Field, offset: Int, location: SourceLocation) {
        self.name = name
        self.field = field
        self.offset = offset
        self.location = location
    }
}
