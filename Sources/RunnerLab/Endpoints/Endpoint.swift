import NIOCore
import NIOHTTP1

/// One request as an endpoint sees it: fully read, with the connection it arrived on.
struct LabRequest: Sendable {
    let head: HTTPRequestHead
    let body: ByteBuffer
    let connection: ConnectionInfo
    /// 1-based position of this request on its connection.
    let requestIndex: Int
    /// Completes when the connection closes (client gone or lab stopping): what a hanging endpoint waits for.
    let connectionClosed: EventLoopFuture<Void>
    /// The whole body's length and SHA-256, taken while it streamed in; `body` holds it only up
    /// to the handler's in-memory limit (`truncated` past it).
    let bodyFacts: BodyFacts

    struct BodyFacts: Sendable {
        var length: Int
        var sha256: String
        var truncated: Bool
    }
    /// What the matched route left after its prefix, e.g. "404" for `/status/404`; empty for exact routes.
    var routeParameter: String = ""

    /// The request target's path, without the query.
    var path: Substring { head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }

    /// The text after the first "?", if any.
    var query: String? {
        guard let mark = head.uri.firstIndex(of: "?") else { return nil }
        return String(head.uri[head.uri.index(after: mark)...])
    }
}

/// A complete response for the connection handler to send.
struct LabResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: ByteBuffer

    init(status: HTTPResponseStatus = .ok, contentType: String, body: ByteBuffer) {
        self.status = status
        self.headers = HTTPHeaders([("content-type", contentType)])
        self.body = body
    }

    static func text(_ text: String, status: HTTPResponseStatus = .ok) -> LabResponse {
        LabResponse(status: status, contentType: "text/plain; charset=utf-8", body: ByteBuffer(string: text))
    }

    static func json(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> LabResponse {
        LabResponse(status: status, contentType: "application/json", body: ByteBuffer(string: value.serialized))
    }

    /// A 400 that says what was wrong with the request, so a failing test reads well.
    static func badRequest(_ reason: String) -> LabResponse { .text("bad request: \(reason)\n", status: .badRequest) }
}

/// Answers the requests of one route.
///
/// Endpoints get the connection's event loop so they can answer later (delays, and later slow or
/// streamed bodies) without ever blocking a thread.
protocol Endpoint: Sendable {
    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse>
}

/// An endpoint whose answer is ready at once.
protocol ImmediateEndpoint: Endpoint {
    func response(to request: LabRequest) -> LabResponse
}

extension ImmediateEndpoint {
    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        eventLoop.makeSucceededFuture(response(to: request))
    }
}
