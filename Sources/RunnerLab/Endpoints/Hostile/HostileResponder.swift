#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// Carries out one `HostileBehaviour` on an HTTP/1.x connection, from the context of the handler that read
/// the request.
///
/// Nothing here blocks: pacing is done with tasks scheduled on the connection's event loop, and every
/// step first checks that the channel is still open, so a client that leaves or a lab that stops ends the
/// behaviour at its next step (the event loops' shutdown also drops the tasks still scheduled).
struct HostileResponder {
    /// The byte each paced write sends, and the filler of bodies and headers.
    static let filler = UInt8(ascii: "a")
    /// Bytes `/hostile/stall` sends of the 1000 it promises.
    static let stallBytes = 10
    /// How many bytes `/hostile/stall` and `/hostile/drip` promise.
    static let promisedBytes = 1000
    /// What `/hostile/reset` promises, and how much of it comes before the reset.
    static let resetPromisedBytes = 1 << 20
    static let resetSentBytes = 64 << 10
    /// `/hostile/huge-headers`: this many `X-Filler-N` headers of `hugeHeaderValueBytes` each, ~1 MiB in all.
    static let hugeHeaderCount = 1024
    static let hugeHeaderValueBytes = 1024
    /// `/hostile/endless`: one chunk per write, the next only once the previous reached the socket and this
    /// interval passed, so at most ~3 MiB/s and never faster than the client reads.
    static let endlessChunkBytes = 64 << 10
    static let endlessChunkInterval = TimeAmount.milliseconds(20)
    static let http10Response = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nhello without a length"
    static let badStatusResponse = "HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nok"

    let context: ChannelHandlerContext
    let request: HTTPRequestHead

    func run(_ behaviour: HostileBehaviour) {
        switch behaviour {
        case .silent:
            // The request is read; holding the connection is all there is to do.
            break
        case .stall:
            writeHead(contentLength: Self.promisedBytes)
            writeBody(Self.stallBytes)
        case .drip:
            writeHead(contentLength: Self.promisedBytes)
            drip(remaining: Self.promisedBytes)
        case .reset:
            writeHead(contentLength: Self.resetPromisedBytes)
            writeBody(Self.resetSentBytes).whenComplete { _ in self.reset() }
        case .hugeHeaders:
            let body = "huge headers done\n"
            var headers = HTTPHeaders([("content-length", String(body.utf8.count))])
            let value = String(repeating: "a", count: Self.hugeHeaderValueBytes)
            for index in 0..<Self.hugeHeaderCount { headers.add(name: "X-Filler-\(index)", value: value) }
            write(.head(HTTPResponseHead(version: request.version, status: .ok, headers: headers)))
            write(.body(.byteBuffer(ByteBuffer(string: body))))
            end()
        case .endless:
            // No length on an HTTP/1.1 head: the encoder frames the body parts as chunks that never end.
            writeHead(headers: HTTPHeaders([("transfer-encoding", "chunked")]))
            var chunk = context.channel.allocator.buffer(capacity: Self.endlessChunkBytes)
            chunk.writeRepeatingByte(Self.filler, count: Self.endlessChunkBytes)
            endless(chunk)
        case .http10:
            writeRawAndClose(Self.http10Response)
        case .badStatus:
            writeRawAndClose(Self.badStatusResponse)
        }
    }

    private func write(_ part: HTTPServerResponsePart) {
        context.write(NIOAny(part), promise: nil)
    }

    private func flushed(_ part: HTTPServerResponsePart) -> EventLoopFuture<Void>.Isolated {
        context.writeAndFlush(NIOAny(part)).assumeIsolated()
    }

    /// Ends a complete response, closing afterwards when the client asked for it (`Connection: close`).
    private func end() {
        let context = self.context
        let close = !request.isKeepAlive
        flushed(.end(nil)).whenComplete { _ in
            if close { context.close(promise: nil) }
        }
    }

    private func writeHead(contentLength: Int? = nil, headers: HTTPHeaders = [:]) {
        var headers = headers
        headers.replaceOrAdd(name: "server", value: "runner-lab")
        headers.replaceOrAdd(name: "content-type", value: "application/octet-stream")
        if let contentLength { headers.replaceOrAdd(name: "content-length", value: String(contentLength)) }
        write(.head(HTTPResponseHead(version: request.version, status: .ok, headers: headers)))
    }

    @discardableResult
    private func writeBody(_ count: Int) -> EventLoopFuture<Void>.Isolated {
        var buffer = context.channel.allocator.buffer(capacity: count)
        buffer.writeRepeatingByte(Self.filler, count: count)
        return flushed(.body(.byteBuffer(buffer)))
    }

    /// One byte now, the next a second later, and the end once all promised bytes went.
    private func drip(remaining: Int) {
        guard context.channel.isActive else { return }
        guard remaining > 0 else {
            end()
            return
        }
        writeBody(1)
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            self.drip(remaining: remaining - 1)
        }
    }

    private func endless(_ chunk: ByteBuffer) {
        guard context.channel.isActive else { return }
        flushed(.body(.byteBuffer(chunk))).whenSuccess {
            _ = self.context.eventLoop.assumeIsolated().scheduleTask(in: Self.endlessChunkInterval) {
                self.endless(chunk)
            }
        }
    }

    /// SO_LINGER with a zero timeout makes close() drop the connection with an RST instead of a FIN; the
    /// close starts at the socket outlet so TLS does not first try a close_notify exchange.
    private func reset() {
        guard context.channel.isActive, let socket = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        let context = self.context
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).hop(to: context.eventLoop).assumeIsolated()
            .whenComplete { _ in
                let outlet = try? context.pipeline.syncOperations.context(name: PipelineOutlet.socket)
                (outlet ?? context).close(promise: nil)
            }
    }

    /// Sends bytes NIO's HTTP encoder would refuse to produce, through the response outlet (see
    /// `PipelineOutlet`), then closes there too: over TLS that still sends close_notify, which is how a
    /// length-less HTTP/1.0 body properly ends.
    private func writeRawAndClose(_ text: String) {
        guard let outlet = try? context.pipeline.syncOperations.context(name: PipelineOutlet.response) else {
            context.close(promise: nil)
            return
        }
        outlet.writeAndFlush(NIOAny(ByteBuffer(string: text))).assumeIsolated().whenComplete { _ in
            outlet.close(promise: nil)
        }
    }
}
