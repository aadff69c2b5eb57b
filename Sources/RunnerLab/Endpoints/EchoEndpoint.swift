import NIOCore
import NIOHTTP1

/// `/echo`: reports what arrived — method, target, Host, SNI, addresses, HTTP version, headers, cookies,
/// body digest, and which connection carried it — so tests can see exactly what a client sent and how.
///
/// Over HTTP/2 `http_version` is "2", `host` is the `:authority`, `connection_id` the TCP connection and
/// `request_index` the n-th stream on it.
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
                ("http_version", .string(Self.versionText(head.version))),
                ("headers", .object(Self.mergedHeaders(head.headers))),
                ("cookies", .object(CookieHeader.pairs(head.headers).map { ($0.name, JSONValue.string($0.value)) })),
                ("body_length", .int(request.bodyFacts.length)),
                ("body_sha256", .string(request.bodyFacts.sha256)),
                ("connection_id", .int(connection.id)),
                ("request_index", .int(request.requestIndex)),
            ]))
    }

    /// Lower-cased names in first-seen order; repeated headers joined with ", " as RFC 9110 allows, except
    /// Cookie, joined with "; " as RFC 9113 §8.2.3 says (HTTP/2 clients may send each cookie on its own).
    static func mergedHeaders(_ headers: HTTPHeaders) -> [(String, JSONValue)] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            if values[key] == nil { order.append(key) }
            values[key, default: []].append(value)
        }
        return order.map { key in
            (key, .string(values[key, default: []].joined(separator: key == "cookie" ? "; " : ", ")))
        }
    }

    /// "1.1", "1.0", or just "2" for HTTP/2 (which has no minor version), as curl's `%{http_version}` says.
    static func versionText(_ version: HTTPVersion) -> String {
        version.major >= 2 ? "\(version.major)" : "\(version.major).\(version.minor)"
    }
}
