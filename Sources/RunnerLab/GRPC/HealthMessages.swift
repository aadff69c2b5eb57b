import GRPCCore

// grpc.health.v1's two messages, encoded and decoded by hand: each is one protobuf field
// (`string service = 1`; `ServingStatus status = 1`), three bytes or so on the wire, and the
// protoc plugin that would generate them costs a first build about ten minutes (issue 48).

/// `grpc.health.v1.HealthCheckRequest`: the service whose health is asked ("" for the server).
public struct LabHealthCheckRequest: Sendable, Equatable {
    public var service: String

    public init(service: String) { self.service = service }

    /// Protobuf: field 1, wire type 2 (0x0A), varint length, UTF-8; nothing for "" (proto3
    /// leaves a default value out).
    public var protobuf: [UInt8] {
        let utf8 = Array(service.utf8)
        guard !utf8.isEmpty else { return [] }
        return [0x0A] + Protobuf.varint(UInt64(utf8.count)) + utf8
    }

    /// Reads field 1 and skips any other field, as protobuf parsers do; throws on truncated or
    /// malformed bytes.
    public init(protobuf bytes: [UInt8]) throws {
        var service = ""
        var reader = Protobuf.Reader(bytes)
        while let (field, wireType) = try reader.nextKey() {
            if field == 1, wireType == 2 {
                guard let text = String(validating: try reader.lengthDelimited(), as: UTF8.self) else {
                    throw Protobuf.Malformed(reason: "HealthCheckRequest.service is not UTF-8")
                }
                service = text
            } else {
                try reader.skip(wireType: wireType)
            }
        }
        self.service = service
    }
}

/// `grpc.health.v1.HealthCheckResponse`: its serving status.
public struct LabHealthCheckResponse: Sendable, Equatable {
    /// `grpc.health.v1.HealthCheckResponse.ServingStatus`.
    public enum ServingStatus: Sendable, Equatable {
        case unknown, serving, notServing, serviceUnknown
        /// A number this enum does not name (proto3 enums are open).
        case unrecognized(UInt64)

        public var number: UInt64 {
            switch self {
            case .unknown: 0
            case .serving: 1
            case .notServing: 2
            case .serviceUnknown: 3
            case .unrecognized(let number): number
            }
        }

        public init(number: UInt64) {
            switch number {
            case 0: self = .unknown
            case 1: self = .serving
            case 2: self = .notServing
            case 3: self = .serviceUnknown
            default: self = .unrecognized(number)
            }
        }
    }

    public var status: ServingStatus

    public init(status: ServingStatus) { self.status = status }

    /// Protobuf: field 1, wire type 0 (0x08), varint; nothing for UNKNOWN (0).
    public var protobuf: [UInt8] {
        status.number == 0 ? [] : [0x08] + Protobuf.varint(status.number)
    }

    public init(protobuf bytes: [UInt8]) throws {
        var status = ServingStatus.unknown
        var reader = Protobuf.Reader(bytes)
        while let (field, wireType) = try reader.nextKey() {
            if field == 1, wireType == 0 {
                status = ServingStatus(number: try reader.varint())
            } else {
                try reader.skip(wireType: wireType)
            }
        }
        self.status = status
    }
}

/// The little of protobuf's wire format the two messages need.
enum Protobuf {
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "malformed protobuf: \(reason)" }
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    struct Reader {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next field's number and wire type; nil at the end.
        mutating func nextKey() throws -> (field: UInt64, wireType: UInt8)? {
            guard index < bytes.count else { return nil }
            let key = try varint()
            guard key >> 3 != 0 else { throw Malformed(reason: "field number 0") }
            return (key >> 3, UInt8(key & 7))
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard index < bytes.count else { throw Malformed(reason: "truncated varint") }
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            throw Malformed(reason: "varint longer than 10 bytes")
        }

        mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
            let length = try varint()
            guard length <= UInt64(bytes.count - index) else { throw Malformed(reason: "truncated field") }
            defer { index += Int(length) }
            return bytes[index..<index + Int(length)]
        }

        mutating func skip(wireType: UInt8) throws {
            switch wireType {
            case 0: _ = try varint()
            case 1: try advance(8)
            case 2: _ = try lengthDelimited()
            case 5: try advance(4)
            default: throw Malformed(reason: "wire type \(wireType)")
            }
        }

        private mutating func advance(_ count: Int) throws {
            guard count <= bytes.count - index else { throw Malformed(reason: "truncated field") }
            index += count
        }
    }
}

/// grpc-swift's serializer and deserializer for any message that turns into bytes and back.
public struct LabMessageCodec<Message: Sendable>: MessageSerializer, MessageDeserializer {
    private let encode: @Sendable (Message) -> [UInt8]
    private let decode: @Sendable ([UInt8]) throws -> Message

    public init(encode: @escaping @Sendable (Message) -> [UInt8], decode: @escaping @Sendable ([UInt8]) throws -> Message) {
        self.encode = encode
        self.decode = decode
    }

    public func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(encode(message))
    }

    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        let bytes = serializedMessageBytes.withUnsafeBytes { Array($0) }
        do {
            return try decode(bytes)
        } catch {
            throw RPCError(code: .invalidArgument, message: "\(error)")
        }
    }
}

extension LabMessageCodec where Message == LabHealthCheckRequest {
    public static var healthCheckRequest: Self { Self(encode: { $0.protobuf }, decode: { try LabHealthCheckRequest(protobuf: $0) }) }
}

extension LabMessageCodec where Message == LabHealthCheckResponse {
    public static var healthCheckResponse: Self { Self(encode: { $0.protobuf }, decode: { try LabHealthCheckResponse(protobuf: $0) }) }
}

extension LabMessageCodec where Message == [UInt8] {
    /// The bytes as they are: what the echo method reads and writes.
    public static var bytes: Self { Self(encode: { $0 }, decode: { $0 }) }
}
