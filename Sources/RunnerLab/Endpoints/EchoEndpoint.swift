import Crypto
import NIOCore
import NIOHTTP1

/// `/echo`: reports what arrived — method, target, Host, SNI, addresses, headers, body digest,
/// and which connection carried it — so tests can see exactly what a client sent and how.
struct EchoEndpoint: ImmediateEndpoint {
    func response(to request: LabRequest) -> LabResponse {
        let head = request.head
        let connection = request.connection
        return .json(
            .object([
                ("method", .string(head.method.rawValue)),
                ("path", .string(head.uri)),
                ("host", .optional(head.headers.first(name: "host"))),
                ("sni", .optional(connection.serverName)),
                ("tls", .bool(connection.tls)),
                ("local_address", .optional(connection.localAddress)),
                ("local_port", .optional(connection.localPort)),
                ("remote_address", .optional(connection.remoteAddress)),
                ("remote_port", .optional(connection.remotePort)),
                ("http_version", .string("\(head.version.major).\(head.version.minor)")),
                ("headers", .object(Self.mergedHeaders(head.headers))),
                ("body_length", .int(request.body.readableBytes)),
                ("body_sha256", .string(Self.sha256Hex(request.body))),
                ("connection_id", .int(connection.id)),
                ("request_index", .int(request.requestIndex)),
            ]))
    }

    /// Lower-cased names in first-seen order; repeated headers joined with ", " as RFC 9110 allows.
    static func mergedHeaders(_ headers: HTTPHeaders) -> [(String, JSONValue)] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            if values[key] == nil { order.append(key) }
            values[key, default: []].append(value)
        }
        return order.map { ($0, .string(values[$0, default: []].joined(separator: ", "))) }
    }

    static func sha256Hex(_ body: ByteBuffer) -> String {
        var hasher = SHA256()
        body.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
