import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// A gRPC call's answer read from the final response, and what `expect.grpc` makes of it: pure.
enum GRPCVerdict {
    /// The answer: `grpc-status` and `grpc-message` from the trailers, or from the headers of a
    /// Trailers-Only answer (an error before any message); a health check's serving status from
    /// its one message.
    static func answer(to call: GRPCCall, observed: ObservedResponse) -> GRPCAnswer {
        let fields = observed.trailers.contains { HeaderName.equal($0.name, "grpc-status") } ? observed.trailers : observed.headers
        func value(_ name: String) -> String? { fields.first { HeaderName.equal($0.name, name) }?.value }
        let status = value("grpc-status").flatMap { Int($0) }.map(GRPCStatusCode.init(rawValue:))
        // grpc-message is percent-encoded (the gRPC over HTTP/2 spec); a value that is not stays as sent.
        let message = value("grpc-message").map { $0.removingPercentEncoding ?? $0 }
        var answer = GRPCAnswer(status: status, message: message)
        if call.isHealthCheck, status == .ok, let reply = firstMessage(in: observed.body) {
            answer.serving = servingStatus(in: reply)
        }
        return answer
    }

    /// What `expectation` finds wrong with `answer`: an answer not over HTTP/2, no status, another
    /// status, another serving status (kind `grpc`).
    static func problems(_ expectation: GRPCExpectation, answer: GRPCAnswer, observed: ObservedResponse) -> [Problem] {
        if let version = observed.httpVersion, version != "2" {
            return [Problem(
                subject: "grpc", expected: "an answer over HTTP/2",
                actual: "HTTP/\(version): the server offered no h2, so it takes no gRPC call here", kind: .grpc)]
        }
        guard let status = answer.status else {
            let type = observed.headers.first { HeaderName.equal($0.name, "content-type") }?.value ?? "none"
            return [Problem(
                subject: "grpc status", expected: expectation.status.name,
                actual: "no grpc-status in the answer (HTTP \(observed.status), content-type \(type)): not a gRPC service", kind: .grpc)]
        }
        var problems: [Problem] = []
        if status != expectation.status {
            problems.append(Problem(subject: "grpc status", expected: expectation.status.name, actual: answer.statusText, kind: .grpc))
        }
        if let serving = expectation.serving, status == .ok, answer.serving != serving {
            problems.append(Problem(
                subject: "grpc serving", expected: serving.name, actual: answer.serving?.name ?? "no health answer in the body",
                kind: .grpc))
        }
        return problems
    }

    /// The first length-prefixed message of a gRPC body (flag byte, 4-byte big-endian length);
    /// nil when the body holds none whole, or it is compressed (the runner asks for none).
    static func firstMessage(in body: Data) -> Data? {
        let bytes = [UInt8](body.prefix(5))
        guard bytes.count == 5, bytes[0] == 0 else { return nil }
        let length = Int(bytes[1]) << 24 | Int(bytes[2]) << 16 | Int(bytes[3]) << 8 | Int(bytes[4])
        guard body.count - 5 >= length else { return nil }
        let start = body.startIndex + 5
        return body[start..<start + length]
    }

    /// `HealthCheckResponse.status` (field 1, a varint); UNKNOWN when the field is absent (proto3
    /// leaves out a default). Read by hand, as its request is written: one field of a one-field
    /// message; other fields are skipped by their wire type, a malformed message gives nil.
    static func servingStatus(in message: Data) -> GRPCServingStatus? {
        var reader = ProtobufFields(message)
        var status = GRPCServingStatus.unknown
        while let field = reader.next() {
            switch field {
            case .varint(1, let value): status = GRPCServingStatus(rawValue: Int(clamping: value)) ?? .unknown
            case .varint, .skipped: continue
            case .malformed: return nil
            }
        }
        return status
    }
}

/// The fields of a protobuf message, as far as a health answer needs: varints read, the
/// other wire types skipped by their length.
struct ProtobufFields {
    enum Field: Equatable {
        case varint(UInt64, UInt64)
        case skipped
        case malformed
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    mutating func next() -> Field? {
        guard index < bytes.count else { return nil }
        guard let key = varint() else { return end(.malformed) }
        switch key & 7 {
        case 0:
            guard let value = varint() else { return end(.malformed) }
            return .varint(key >> 3, value)
        case 1: return skip(8)
        case 2:
            guard let length = varint(), length <= UInt64(bytes.count - index) else { return end(.malformed) }
            return skip(Int(length))
        case 5: return skip(4)
        default: return end(.malformed)
        }
    }

    private mutating func end(_ field: Field) -> Field {
        index = bytes.count
        return field
    }

    private mutating func skip(_ count: Int) -> Field {
        guard bytes.count - index >= count else { return end(.malformed) }
        index += count
        return .skipped
    }

    private mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}
