import NIOCore
import NIOHTTP1

/// One connection's requests, last in its pipeline: each request's head checked
/// (`MonitorRoutes.refusal`), then answered from the latest cycle by `MonitorRoutes`, on the
/// event loop, without waiting for anything; kept alive when the client asks. What the
/// connection's guard needs to know (an answer under way, written, the connection to close)
/// it is told.
final class MonitorHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let snapshot: CycleSnapshot
    private let connection: MonitorConnectionHandler
    private var head: HTTPRequestHead?
    /// The last answer says `Connection: close` (a refusal, or the client asked): whatever
    /// comes after it is ignored.
    private var done = false

    init(snapshot: CycleSnapshot, connection: MonitorConnectionHandler) {
        self.snapshot = snapshot
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            let refusal = MonitorRoutes.refusal(
                versionMajor: request.version.major, versionMinor: request.version.minor,
                contentLengths: request.headers["content-length"],
                chunked: request.headers.contains(name: "transfer-encoding"))
            guard let refusal else {
                head = request
                return
            }
            // Answered at once, without waiting for a body that may never end.
            respond(refusal, to: request, version: .http1_1, keepAlive: false, context: context)
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            let answer = MonitorRoutes.response(method: request.method.rawValue, uri: request.uri, latest: snapshot.latest)
            respond(answer, to: request, version: request.version, keepAlive: request.isKeepAlive, context: context)
        }
    }

    /// A decoder error (NIO's protocol error handler has answered 400 already) or a failed
    /// connection: the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            connection.answered(thenClose: true)
        } else {
            connection.close()
        }
    }

    private func respond(
        _ answer: MonitorRoutes.Response, to request: HTTPRequestHead, version: HTTPVersion, keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        connection.answering()
        done = !keepAlive
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: answer.contentType)
        headers.add(name: "Content-Length", value: String(answer.body.count))
        if let allow = answer.allow { headers.add(name: "Allow", value: allow) }
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus(statusCode: answer.status, reasonPhrase: answer.reason)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD, !answer.body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: answer.body.count)
            buffer.writeBytes(answer.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let connection = connection
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
            switch result {
            case .success: connection.answered(thenClose: !keepAlive)
            case .failure: connection.close()
            }
        }
    }
}
