import RunnerVocabulary

/// What the final response must look like. Every field is optional but `status` ("2xx").
public struct Expectations: Sendable, Equatable {
    public var status: StatusExpectation = .classes([2])
    public var headers: [HeaderExpectation] = []
    public var body: [BodyMatcher] = []
    public var certificate: CertificateExpectation? = nil
    public var time: TimeLimits = TimeLimits()
    public var httpVersion: String? = nil
    public var redirects: Int? = nil
    /// The final response's URL, with the original host (after every redirect followed).
    public var finalURL: PlanURL? = nil
    /// What the resolver may answer (`expect.dns`).
    public var dns: DNSExpectation? = nil
    /// What the final response's handshake settled on (`expect.tls`).
    public var tls: TLSExpectation? = nil
    /// Where each client population may be sent (`expect.edges`), in the order written.
    public var edges: [EdgeRule] = []
    /// A gRPC call's status and serving status (`expect.grpc`, or its defaults for a scenario
    /// with `request.grpc`); nil for a plain request.
    public var grpc: GRPCExpectation? = nil

    public init() {}
}

public enum StatusExpectation: Sendable, Equatable {
    /// Any of these exact codes.
    case codes([Int])
    /// Any code in these hundreds (`"2xx"` is `[2]`).
    case classes([Int])
}

public struct HeaderExpectation: Sendable, Equatable {
    public var name: String
    public var matcher: StringMatcher

    public init(name: String, matcher: StringMatcher) {
        self.name = name
        self.matcher = matcher
    }
}

public enum StringMatcher: Sendable, Equatable {
    case equals(String)
    case contains(String)
    /// A regular expression, already checked to compile.
    case matches(String)
    /// `absent: true` — the value (a header) must not be there at all.
    case absent
}

public enum BodyMatcher: Sendable, Equatable {
    case equals(String)
    case contains(String)
    case matches(String)
    /// Lower-case hex SHA-256 of the whole body.
    case sha256(String)
    /// Each path must hold the given value.
    case json([JSONExpectation])
    /// Each path must exist, whatever it holds (`null` included): the shape of an answer whose
    /// values change between runs (ids, times), as `runner init --har` records it.
    case jsonExists([JSONPath])
}

public struct JSONExpectation: Sendable, Equatable {
    public var path: JSONPath
    public var value: JSONValue

    public init(path: JSONPath, value: JSONValue) {
        self.path = path
        self.value = value
    }
}

/// `$.a.b[0]`: member names and array indices from the root; in an HTTPDNS `answer:` path
/// also `[*]`, every element of an array.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case member(String)
        case index(Int)
        /// `[*]`: each element of an array (only where many values make sense).
        case everyElement
    }

    public var components: [Component]
    public var text: String

    public init(components: [Component], text: String) {
        self.components = components
        self.text = text
    }

    public var description: String { text }
}

/// A JSON value as a plan writes it (YAML scalars typed the YAML 1.2 core way).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// Encoded as the JSON it stands for (verdicts print expected and found values with JSONEncoder).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let items):
            var container = encoder.singleValueContainer()
            try container.encode(items)
        case .object(let members):
            var container = encoder.singleValueContainer()
            try container.encode(members)
        }
    }
}

public struct CertificateExpectation: Sendable, Equatable {
    public var minDaysLeft: Int? = nil
    public var issuer: StringMatcher? = nil
    public var subject: StringMatcher? = nil
    /// SHA-256 digests of SubjectPublicKeyInfo (32 bytes each), as `sha256/BASE64` pins name
    /// them: any certificate of the verified chain must match one.
    public var pins: [[UInt8]]? = nil

    public init() {}
}

/// `expect.tls`: the negotiated version and cipher of the final response's connection.
public struct TLSExpectation: Sendable, Equatable {
    public var version: TLSVersion? = nil
    public var cipher: StringMatcher? = nil

    public init() {}
}

/// Maxima per phase; nil means unchecked.
public struct TimeLimits: Sendable, Equatable {
    public var total: Duration? = nil
    public var connect: Duration? = nil
    public var tls: Duration? = nil
    public var firstByte: Duration? = nil

    public init() {}

    /// No phase limited.
    public var isEmpty: Bool { total == nil && connect == nil && tls == nil && firstByte == nil }
}
