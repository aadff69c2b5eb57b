import NIOCore
import NIOHTTP1
import NIOPosix

/// `serve`'s HTTP server (SwiftNIO, HTTP/1.1): each request answered from the latest cycle by
/// `MonitorRoutes`, on the event loop, without waiting for anything.
final class MonitorServer {
    /// Why the server could not start.
    struct ListenError: Error, CustomStringConvertible {
        var address: ListenAddress
        var reason: String

        var description: String { "cannot listen on \(address): \(reason)" }
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Binds `address` and starts serving `snapshot`; throws when the address cannot be bound
    /// (in use, not this machine's, not allowed).
    init(address: ListenAddress, snapshot: CycleSnapshot) throws(ListenError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(MonitorHTTPHandler(snapshot: snapshot))
                }
            }
        do {
            channel = try bootstrap.bind(host: address.host, port: address.port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ListenError(address: address, reason: Self.reason(error))
        }
        self.group = group
    }

    /// The port it listens on (the one the system chose, for `--listen HOST:0`).
    var port: Int { channel.localAddress?.port ?? 0 }

    /// Closes the listening socket and stops the event loop.
    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// The system's words for a bind failure (`Address already in use`), not NIO's type dump.
    private static func reason(_ error: any Error) -> String {
        if let failure = error as? IOError { return failure.description }
        return String(describing: error)
    }
}

/// One connection: a request's head, then its end, answered; kept alive when the client asks.
private final class MonitorHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let snapshot: CycleSnapshot
    private var head: HTTPRequestHead?

    init(snapshot: CycleSnapshot) {
        self.snapshot = snapshot
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            let answer = MonitorRoutes.response(method: request.method.rawValue, uri: request.uri, latest: snapshot.latest)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: answer.contentType)
            headers.add(name: "Content-Length", value: String(answer.body.count))
            if let allow = answer.allow { headers.add(name: "Allow", value: allow) }
            let keepAlive = request.isKeepAlive
            headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
            let status = HTTPResponseStatus(statusCode: answer.status, reasonPhrase: answer.reason)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
            if request.method != .HEAD, !answer.body.isEmpty {
                var buffer = context.channel.allocator.buffer(capacity: answer.body.count)
                buffer.writeBytes(answer.body)
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive { done.whenComplete { _ in context.close(promise: nil) } }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
