import RunnerVocabulary

/// What a gRPC call's answer said (`request.grpc`): its status and message, from the trailers
/// or a Trailers-Only answer's headers, and a health check's serving status from its message.
public struct GRPCAnswer: Sendable, Equatable {
    /// Nil when the answer carried no `grpc-status` (not a gRPC server, or cut short).
    public var status: GRPCStatusCode?
    /// `grpc-message`, percent-decoded; nil when absent.
    public var message: String?
    /// The health check's `ServingStatus`; nil for another call, or an answer without a message.
    public var serving: GRPCServingStatus?

    public init(status: GRPCStatusCode?, message: String? = nil, serving: GRPCServingStatus? = nil) {
        self.status = status
        self.message = message
        self.serving = serving
    }

    /// `NOT_FOUND (5): unknown service 'payments'`, `OK (0), serving SERVING`: the evidence's
    /// `grpc` fact.
    public var summary: String {
        var text = status?.description ?? "no grpc-status"
        if let message, !message.isEmpty { text += ": " + message }
        if let serving { text += ", serving \(serving.name)" }
        return text
    }

    /// `NOT_FOUND: unknown service 'payments'`: what a problem says came back.
    public var statusText: String {
        guard let status else { return "no grpc-status" }
        guard let message, !message.isEmpty else { return status.name }
        return "\(status.name): \(message)"
    }
}

// The JSON report's `evidence.grpc` (docs/json-report.md): `{status, status_name, message, serving}`.
extension GRPCAnswer {
    /// The keys of a call's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case message
        /// `SERVING`…, null for none.
        case serving
        /// The number, null when the answer carried none.
        case status
        /// `NOT_FOUND`, null when the answer carried none.
        case statusName = "status_name"
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .message: sink.value(message)
            case .serving: sink.word(serving?.name)
            case .status: sink.number(status?.rawValue)
            case .statusName: sink.word(status?.name)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> GRPCAnswer {
        var answer = GRPCAnswer(status: nil)
        for key in RecordKey.allCases {
            switch key {
            case .message: answer.message = try container.decodeIfPresent(String.self, forKey: key)
            case .serving: answer.serving = try container.decodeIfPresent(String.self, forKey: key).flatMap(GRPCServingStatus.init(name:))
            case .status: answer.status = try container.decodeIfPresent(Int.self, forKey: key).map(GRPCStatusCode.init(rawValue:))
            case .statusName:
                // The number says it; the name is for scripts.
                continue
            }
        }
        return answer
    }
}
