import NIOCore

/// One connection's guard, first in its pipeline: it sees every byte that comes (a request in
/// progress is a request that has sent a byte, whether or not NIO has decoded anything), keeps
/// the connection's deadlines (`MonitorConnectionState`) on a timer, counts the connection in
/// and out of `MonitorConnections`, and closes it when a deadline passes or the cap needs room.
final class MonitorConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var state: MonitorConnectionState
    private let connections: MonitorConnections
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    /// The deadline `timer` is set for.
    private var armedFor: NIODeadline?
    private var counted = false

    init(limits: MonitorConnectionLimits, connections: MonitorConnections) {
        state = MonitorConnectionState(openedAt: .now(), limits: limits)
        self.connections = connections
    }

    /// Whether the cap may close this connection for a new one.
    var isEvictable: Bool { state.isEvictable }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { opened(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        connections.closed(self)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let arrival = state.bytesArrived(unwrapInboundIn(data).readableBytesView, at: .now())
        rearm()
        switch arrival {
        case .forward:
            context.fireChannelRead(data)
        case .drop:
            // Closing: what comes is read (so that the close sends no reset) and dropped.
            break
        case .refuse(let answer):
            refuse(answer, context: context)
        }
    }

    // MARK: From the HTTP handler

    /// A request is being answered (complete, or refused from its head).
    func answering() {
        state.answering(at: .now())
        rearm()
    }

    /// An answer was written; `thenClose` (a refusal, `Connection: close`) shuts the output.
    func answered(thenClose: Bool) {
        if thenClose {
            shutOutput()
        } else {
            state.answered(at: .now())
            rearm()
        }
    }

    /// Closes at once: the cap needs the room, or the connection failed.
    func close() {
        context?.close(promise: nil)
    }

    // MARK: Deadlines

    private func opened(context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        rearm()
        connections.opened(self)?.close()
    }

    private func rearm() {
        guard let context, armedFor != state.deadline else { return }
        timer?.cancel()
        armedFor = state.deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: state.deadline) { [weak self] in
            self?.deadlinePassed()
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        armedFor = nil
    }

    private func deadlinePassed() {
        timer = nil
        armedFor = nil
        guard let context else { return }
        switch state.expiry(at: .now()) {
        case .notYet:
            rearm()
        case .close:
            context.close(promise: nil)
        case .refuse(let answer):
            refuse(answer, context: context)
        }
    }

    /// Answers `answer` straight to the socket (NIO's HTTP handlers after this one hold a
    /// half-decoded request, or none), then shuts the output.
    private func refuse(_ answer: MonitorRoutes.Response, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(Self.bytes(answer, allocator: context.channel.allocator)), promise: nil)
        shutOutput()
    }

    /// Shuts the output (the client reads the answer, then the end) and lingers until the client
    /// closes or the linger deadline passes.
    private func shutOutput() {
        guard let context else { return }
        state.closing(at: .now())
        rearm()
        context.close(mode: .output).assumeIsolated().whenFailure { _ in
            // Already closed, or a half-close the channel cannot do: close whole.
            context.close(promise: nil)
        }
    }

    /// `answer` as HTTP/1.1 bytes, with `Connection: close`.
    private static func bytes(_ answer: MonitorRoutes.Response, allocator: ByteBufferAllocator) -> ByteBuffer {
        let head = "HTTP/1.1 \(answer.status) \(answer.reason)\r\nContent-Type: \(answer.contentType)\r\n"
            + "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        var buffer = allocator.buffer(capacity: head.utf8.count + answer.body.count)
        buffer.writeString(head)
        buffer.writeBytes(answer.body)
        return buffer
    }
}
