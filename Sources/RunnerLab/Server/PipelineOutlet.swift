import NIOCore

/// A do-nothing handler that marks a place in a connection's pipeline, so a hostile endpoint can write or
/// close *from there*: an operation started on a handler's context only passes the handlers before it
/// (towards the socket), so the ones behind the mark never see it.
///
/// Two marks are placed: `response` sits just before the HTTP/1 handlers (behind TLS), so bytes written
/// through it reach the client verbatim, encrypted when the connection is TLS, but bypass NIO's
/// `HTTPResponseEncoder` (which could never produce `HTTP/1.0` or a `2OO` status line); `socket` sits first
/// in the pipeline, so a close from it reaches the socket at once instead of TLS's close_notify exchange
/// (what an abortive reset needs).
final class PipelineOutlet: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    /// The name of the mark before the HTTP/1 handlers.
    static let response = "lab-response-outlet"
    /// The name of the mark at the head of the pipeline.
    static let socket = "lab-socket-outlet"
}
