import NIOCore

/// Ends the connection on any error that reaches it: a failed TLS handshake (the client rejected our
/// certificate) or an HTTP/2 connection error, after which nothing useful can follow.
final class CloseOnErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
