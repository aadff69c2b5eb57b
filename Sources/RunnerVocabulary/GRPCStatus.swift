/// A gRPC status code (`grpc-status`), by number, with its canonical name.
public struct GRPCStatusCode: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let ok = GRPCStatusCode(rawValue: 0)

    /// The canonical names, by code (0 to 16).
    public static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
        "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The code named `name` (`NOT_FOUND`, any case), nil for none.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name.uppercased()) else { return nil }
        rawValue = index
    }

    /// `NOT_FOUND`, or `CODE_17` for a number outside the canonical ones.
    public var name: String { Self.names.indices.contains(rawValue) ? Self.names[rawValue] : "CODE_\(rawValue)" }

    /// `NOT_FOUND (5)`.
    public var description: String { "\(name) (\(rawValue))" }
}

/// The serving status a health check answers (`HealthCheckResponse.ServingStatus`).
public enum GRPCServingStatus: Int, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    case serving = 1
    case notServing = 2
    case serviceUnknown = 3

    /// `SERVING`, as the protocol spells it.
    public var name: String {
        switch self {
        case .unknown: "UNKNOWN"
        case .serving: "SERVING"
        case .notServing: "NOT_SERVING"
        case .serviceUnknown: "SERVICE_UNKNOWN"
        }
    }

    public init?(name: String) {
        guard let status = Self.allCases.first(where: { $0.name == name.uppercased() }) else { return nil }
        self = status
    }

    public var description: String { name }
}
