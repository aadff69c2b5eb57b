import NIOCore
import NIOHTTP1
import NIOPosix

/// `serve`'s HTTP server (SwiftNIO, HTTP/1.1, one event-loop thread): each request answered from
/// the latest cycle by `MonitorRoutes`, on the event loop, without waiting for anything; each
/// connection held to its deadlines and the connections to their cap (`MonitorConnectionLimits`),
/// so that slow or idle clients cannot starve the scraper or the cycles of descriptors.
///
/// The handlers are added with the pipeline's `syncOperations` inside the child channel's
/// initializer, on its loop; they are not `Sendable` and never leave it. Only `init` and `stop`
/// block, on the caller's thread, which must not be the server's loop (the command's main thread).
public final class MonitorServer {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Binds `address` and starts serving `snapshot` within `limits`; throws when the address
    /// cannot be bound (in use, not this machine's, not allowed). Blocks until bound.
    public init(address: ListenAddress, snapshot: CycleSnapshot, limits: MonitorConnectionLimits) throws(ListenError) {
        // One thread: the listener and every connection share its loop, so the connections'
        // count needs no lock.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let connections = NIOLoopBoundBox.makeBoxSendingValue(MonitorConnections(cap: limits.maxConnections), eventLoop: loop)
        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    // First, before NIO's HTTP handlers: it sees every byte, decoded or not.
                    let connection = MonitorConnectionHandler(limits: limits, connections: connections.value)
                    try pipeline.addHandler(connection)
                    // NIO's protocol error handler answers a request it cannot decode with 400.
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(MonitorHTTPHandler(snapshot: snapshot, connection: connection))
                }
            }
        do {
            // Not on an event loop: the caller's thread waits for the bind.
            channel = try bootstrap.bind(host: address.host, port: address.port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ListenError(address: address, reason: Self.reason(error))
        }
        self.group = group
    }

    /// The port it listens on (the one the system chose, for `--listen HOST:0`).
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Closes the listening socket and stops the event loop, waiting for both: call it from
    /// outside the loop (NIO traps a wait on its own loop's thread).
    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// The system's words for a bind failure (`Address already in use`), not NIO's type dump.
    private static func reason(_ error: any Error) -> String {
        if let failure = error as? IOError { return failure.description }
        return String(describing: error)
    }
}
