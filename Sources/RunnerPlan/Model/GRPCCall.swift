import Foundation
import RunnerVocabulary

/// A gRPC call a scenario makes (`request.grpc`): the standard health check, or a unary call
/// with a message given as bytes. It goes out as any request does, under every strategy: an
/// HTTP/2 POST of one length-prefixed message (`RequestSpec` carries the method, path, headers
/// and body it makes).
public struct GRPCCall: Sendable, Equatable {
    public enum Method: Sendable, Equatable {
        /// `grpc.health.v1.Health/Check` for `service` (`""`: the server as a whole).
        case health(service: String)
        /// A unary call to `path` (`/pkg.Service/Method`) with this serialized message.
        case unary(path: String, message: Data)
    }

    /// The health service's method, as the standard health checking protocol names it.
    public static let healthCheckPath = "/grpc.health.v1.Health/Check"

    public var method: Method
    /// `metadata:`, sent as request headers.
    public var metadata: [Header]

    public init(method: Method, metadata: [Header] = []) {
        self.method = method
        self.metadata = metadata
    }

    /// The HTTP/2 `:path` of the call.
    public var path: String {
        switch method {
        case .health: Self.healthCheckPath
        case .unary(let path, _): path
        }
    }

    /// Whether the call is the health check (its answer has a serving status).
    public var isHealthCheck: Bool {
        if case .health = method { return true }
        return false
    }

    /// The serialized request message. The health check's `HealthCheckRequest` is one protobuf
    /// string field (`service = 1`): tag 0x0A, a varint length, the UTF-8 bytes, or nothing for
    /// `""` (proto3 leaves out a default value). Written here rather than with generated
    /// swift-protobuf code: three bytes of framing do not justify a code generator in the build.
    public var message: Data {
        switch method {
        case .health(let service):
            guard !service.isEmpty else { return Data() }
            let bytes = Array(service.utf8)
            return Data([0x0A] + Self.varint(UInt64(bytes.count)) + bytes)
        case .unary(_, let message):
            return message
        }
    }

    /// The request body: the message behind gRPC's 5-byte prefix (not compressed, its length
    /// as a big-endian 32-bit number).
    public var framedMessage: Data {
        let message = message
        let length = UInt32(clamping: message.count)
        return Data([0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]) + message
    }

    /// The headers gRPC requires of a request, before the plan's own and the metadata.
    public static let protocolHeaders = [Header(name: "content-type", value: "application/grpc"), Header(name: "te", value: "trailers")]

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return bytes
    }
}

/// What `expect.grpc` asks of a call's answer: its status and, for a health check, its serving
/// status. A scenario with `request.grpc` expects `status: OK` (and `serving: SERVING` for a
/// health check) unless it says otherwise.
public struct GRPCExpectation: Sendable, Equatable {
    public var status: GRPCStatusCode
    /// Nil: not checked (a unary call, or a health check expected to fail).
    public var serving: GRPCServingStatus?

    public init(status: GRPCStatusCode = .ok, serving: GRPCServingStatus? = nil) {
        self.status = status
        self.serving = serving
    }
}
