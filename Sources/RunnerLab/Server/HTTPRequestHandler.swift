import Crypto
import NIOCore
import NIOHTTP1

/// Reads whole requests, hands them to the router, writes the answers: on an HTTP/1.1 connection, or on
/// one HTTP/2 stream behind `HTTP2FramePayloadToHTTP1ServerCodec`, which gives it the same HTTP/1 shapes.
///
/// On HTTP/1.1 it sits behind NIO's `HTTPServerPipelineHandler`, which serialises pipelined requests, so at
/// most one request is in flight here; keep-alive is the default and `Connection: close` is honoured.
/// An HTTP/2 stream carries exactly one request, and its end is the stream's, never the connection's.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the handler's channel carries.
    enum Framing {
        /// A whole HTTP/1.x connection, request after request.
        case http1
        /// One HTTP/2 stream: one request, no connection-level headers.
        case http2Stream
    }

    /// Request bodies are kept in memory for the endpoints up to this size; past it only their
    /// length and SHA-256 (taken while streaming) are kept, so a 1 GiB upload costs no memory.
    static let maximumBodyBytes = 64 << 20

    private struct PendingRequest {
        let head: HTTPRequestHead
        let index: Int
        var body: ByteBuffer
        var digest = SHA256()
        var length = 0
        var truncated = false
    }

    private let connection: ConnectionInfo
    private let router: Router
    private let ledger: ConnectionLedger
    private let framing: Framing
    private var pending: PendingRequest?

    init(connection: ConnectionInfo, router: Router, ledger: ConnectionLedger, framing: Framing) {
        self.connection = connection
        self.router = router
        self.ledger = ledger
        self.framing = framing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            pending = PendingRequest(
                head: head, index: connection.requests.next(), body: context.channel.allocator.buffer(capacity: 0))
            if head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // Without this curl waits a second before sending bodies over 1 MiB.
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(var chunk):
            guard var current = pending else { return }
            pending = nil  // keeps the buffer uniquely referenced while it grows
            chunk.withUnsafeReadableBytes { current.digest.update(bufferPointer: $0) }
            current.length += chunk.readableBytes
            if current.truncated || current.body.readableBytes + chunk.readableBytes > Self.maximumBodyBytes {
                current.truncated = true
                current.body.clear()
            } else {
                current.body.writeBuffer(&chunk)
            }
            pending = current
        case .end:
            guard let request = pending else { return }
            pending = nil
            dispatch(request, context: context)
        }
    }

    /// The request target's path, without the query.
    private static func path(of uri: String) -> Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // TLS failures (the client rejected our certificate) and parse errors end the connection (on HTTP/2
        // the stream).
        context.close(promise: nil)
    }

    private func dispatch(_ pending: PendingRequest, context: ChannelHandlerContext) {
        let head = pending.head
        let path = Self.path(of: head.uri)
        let bodySHA256 = Self.hex(pending.digest.finalize())
        ledger.requestArrived(
            path: path,
            LabArrival(
                address: connection.localAddress.map(ConnectionLedger.canonical) ?? "", sni: connection.serverName,
                tls: connection.tls, host: head.headers.first(name: "host"), method: head.method.rawValue, target: head.uri,
                bodySHA256: bodySHA256))
        if let hostile = HostileBehaviour(path: path) {
            switch framing {
            case .http1:
                HostileResponder(context: context, request: head).run(hostile)
            case .http2Stream:
                // HTTP/2 framing cannot carry raw status lines, length lies or resets of one stream alone.
                let refusal = LabResponse.text(
                    "\(HostileBehaviour.prefix)\(hostile.rawValue) is served over HTTP/1.x only\n",
                    status: .notImplemented)
                write(refusal, to: head, keepAlive: true, context: context)
            }
            return
        }
        let request = LabRequest(
            head: head, body: pending.body, connection: connection, requestIndex: pending.index,
            connectionClosed: context.channel.closeFuture,
            bodyFacts: LabRequest.BodyFacts(
                length: pending.length, sha256: bodySHA256, truncated: pending.truncated))
        router.respond(to: request, on: context.eventLoop)
            .hop(to: context.eventLoop)
            .assumeIsolated()
            .whenComplete { result in
                // The client went away (or the lab stopped) while the endpoint worked: no one to answer.
                guard context.channel.isActive else { return }
                let response: LabResponse
                switch result {
                case .success(let answer): response = answer
                case .failure(let error):
                    response = .text("lab endpoint failed: \(error)\n", status: .internalServerError)
                }
                self.write(response, to: head, keepAlive: head.isKeepAlive, context: context)
            }
    }

    private func write(
        _ response: LabResponse, to request: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = response.headers
        headers.replaceOrAdd(name: "server", value: "runner-lab")
        if response.status.mayHaveResponseBody {
            // Explicit length (also on HEAD, where NIO's encoder drops the body) keeps framing obvious.
            headers.replaceOrAdd(name: "content-length", value: String(response.body.readableBytes))
        }
        // HTTP/2 forbids connection-level headers, and a stream ends with its response anyway.
        let closeAfter = framing == .http1 && !keepAlive
        if framing == .http1 {
            if !keepAlive {
                headers.replaceOrAdd(name: "connection", value: "close")
            } else if request.version.minor == 0 {
                headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
        }
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // HTTP/1's encoder drops a HEAD response's body by itself; the HTTP/2 codec would send it.
        if response.status.mayHaveResponseBody, request.method != .HEAD, response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if closeAfter {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
