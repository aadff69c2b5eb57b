import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The lab's gRPC servers (grpc-swift, `LabGRPC`'s services): TLS on `tlsPort` at
/// `LabAddress.primary` and `LabAddress.sniOnly`, cleartext HTTP/2 with prior knowledge (h2c) on
/// `plainPort` at `LabAddress.primary`. One `GRPCServer` per address and port, each serving in
/// a task of its own on the lab's event loops, all stopped by `close()`.
///
/// The certificates are the lab's HTTPS ones, chosen the same way: `LabAddress.sniOnly` presents
/// sni.lab.test only to a ClientHello naming it, default.lab.test otherwise. grpc-swift's TLS
/// configuration has one certificate and no hook for SNI, so the servers use its
/// `HTTP2ServerTransport.Custom` with a listener of the lab's own (`GRPCListenerFactory`), whose TLS
/// context picks the certificate in NIOSSL's `sslContextCallback`, from the SNI.
final class LabGRPCServers: Sendable {
    let tlsPort: Int
    let plainPort: Int
    /// Emptied by `close()`: a server let go after the event loops stopped fails a promise on
    /// them as it goes (NIOExtras' `ServerQuiescingHelper`, in grpc-swift's transport), which NIO
    /// reports ("Cannot schedule tasks on an EventLoop that has already shut down").
    private let servers: NIOLockedValueBox<[RunningGRPCServer]>

    /// How long `start` waits for a server to listen, and `close` for one to stop gracefully.
    static let deadline: Duration = .seconds(10)

    private init(tlsPort: Int, plainPort: Int, servers: [RunningGRPCServer]) {
        self.tlsPort = tlsPort
        self.plainPort = plainPort
        self.servers = NIOLockedValueBox(servers)
    }

    /// Listens on every gRPC address; a port of 0 picks one number free on all of its addresses.
    static func start(
        hosts: [VirtualHost], tlsPort: Int, plainPort: Int, group: MultiThreadedEventLoopGroup
    ) async throws -> LabGRPCServers {
        let tlsHosts = try [LabAddress.primary, LabAddress.sniOnly].map { address in
            guard let host = hosts.first(where: { $0.address == address }) else {
                throw LabError.cannotListen(service: "gRPC TLS", address: address, port: tlsPort, reason: "no such lab address")
            }
            return (address: address, tls: Optional(try GRPCListenerFactory.context(for: host)))
        }
        let tls = try await bind(service: "gRPC TLS", listeners: tlsHosts, port: tlsPort, group: group)
        do {
            let plain = try await bind(
                service: "gRPC", listeners: [(LabAddress.primary, nil)], port: plainPort, group: group)
            return LabGRPCServers(tlsPort: tls.port, plainPort: plain.port, servers: tls.servers + plain.servers)
        } catch {
            await stop(tls.servers)
            throw error
        }
    }

    /// Stops every server: a graceful shutdown (GOAWAY, streams finish), then cancellation for any
    /// server not stopped within `deadline`; then lets them go, before the lab stops its loops.
    func close() async {
        let servers = self.servers.withLockedValue { servers in
            defer { servers = [] }
            return servers
        }
        await Self.stop(servers)
    }

    private static func stop(_ servers: [RunningGRPCServer]) async {
        for server in servers { server.server.beginGracefulShutdown() }
        for server in servers { await server.stopped() }
    }

    /// Binds one server per listener at `port`, or none; port 0 lets the kernel choose a number on
    /// the first address, then claims it on the others, starting over if one of them has it taken.
    private static func bind(
        service: String, listeners: [(address: String, tls: NIOSSLContext?)], port: Int, group: MultiThreadedEventLoopGroup
    ) async throws -> (port: Int, servers: [RunningGRPCServer]) {
        guard let first = listeners.first, (0...65535).contains(port) else {
            throw LabError.cannotListen(service: service, address: listeners.first?.address ?? "-", port: port, reason: "port out of range")
        }
        var lastReason = "none"
        for _ in 0..<(port == 0 ? ListenerSet.attempts : 1) {
            var started: [RunningGRPCServer] = []
            do {
                let head = try await RunningGRPCServer.start(service: service, address: first.address, port: port, tls: first.tls, group: group)
                started.append(head)
                for listener in listeners.dropFirst() {
                    started.append(
                        try await RunningGRPCServer.start(
                            service: service, address: listener.address, port: head.port, tls: listener.tls, group: group))
                }
                return (head.port, started)
            } catch let failure as GRPCBindFailure {
                await stop(started)
                // A taken number on a later address is worth another try with a new one.
                guard port == 0, failure.addressInUse, !started.isEmpty else { throw failure.labError }
                lastReason = failure.reason
            } catch {
                await stop(started)
                throw error
            }
        }
        throw LabError.noCommonFreePort(service: service, attempts: ListenerSet.attempts, lastReason: lastReason)
    }
}

/// One `GRPCServer` serving in its task.
private struct RunningGRPCServer: Sendable {
    let server: GRPCServer<HTTP2ServerTransport.Custom<GRPCListenerFactory>>
    let serving: Task<Void, any Error>
    let port: Int

    /// Starts serving and returns once the server listens (or throws why it could not, within
    /// `LabGRPCServers.deadline`).
    static func start(
        service: String, address: String, port: Int, tls: NIOSSLContext?, group: MultiThreadedEventLoopGroup
    ) async throws -> RunningGRPCServer {
        let factory = GRPCListenerFactory(eventLoopGroup: group, address: address, port: port, tls: tls)
        let transport = HTTP2ServerTransport.Custom(listenerFactory: factory)
        let server = GRPCServer(transport: transport, services: LabGRPC.services)
        let serving = Task { try await server.serve() }
        // `listeningAddress` returns once bound, or nil once the transport has stopped (a bind
        // that failed): a server that neither listens nor fails in time is stopped, which ends it.
        let watchdog = Task {
            try await Task.sleep(for: LabGRPCServers.deadline)
            server.beginGracefulShutdown()
            serving.cancel()
        }
        let bound = await transport.listeningAddress
        watchdog.cancel()
        if let bound, let boundPort = bound.ipv4?.port ?? bound.ipv6?.port {
            return RunningGRPCServer(server: server, serving: serving, port: boundPort)
        }
        server.beginGracefulShutdown()
        let failure: GRPCBindFailure
        switch await serving.result {
        case .failure(let error):
            failure = GRPCBindFailure(service: service, address: address, port: port, error: error)
        case .success:
            failure = GRPCBindFailure(
                service: service, address: address, port: port, addressInUse: false,
                reason: "the server stopped before it listened (no answer within \(LabGRPCServers.deadline))")
        }
        throw failure
    }

    /// Waits for the server to stop, cancelling it if a graceful stop takes longer than the deadline.
    func stopped() async {
        let serving = self.serving
        let watchdog = Task {
            try await Task.sleep(for: LabGRPCServers.deadline)
            serving.cancel()
        }
        _ = await serving.result
        watchdog.cancel()
    }
}

/// A gRPC listener that could not bind, and whether only because its port is taken.
private struct GRPCBindFailure: Error {
    let labError: LabError
    let reason: String
    let addressInUse: Bool

    init(service: String, address: String, port: Int, addressInUse: Bool, reason: String) {
        self.labError = .cannotListen(service: service, address: address, port: port, reason: reason)
        self.reason = reason
        self.addressInUse = addressInUse
    }

    /// From what `GRPCServer.serve()` threw: the bind's own error, wrapped in grpc-swift's
    /// `RuntimeError`s.
    init(service: String, address: String, port: Int, error: any Error) {
        var underlying: any Error = error
        while let wrapped = underlying as? RuntimeError, let cause = wrapped.cause { underlying = cause }
        self.init(
            service: service, address: address, port: port,
            addressInUse: (underlying as? IOError)?.errnoCode == EADDRINUSE, reason: ListenerSet.reason(underlying))
    }
}

/// Binds a gRPC server's socket the lab's way: on one address, with TLS (the lab's certificate by
/// SNI, ALPN "h2") or without (HTTP/2 with prior knowledge), then grpc-swift's HTTP/2 pipeline.
struct GRPCListenerFactory: HTTP2ServerTransport.ListenerFactory {
    let eventLoopGroup: any EventLoopGroup
    let address: String
    let port: Int
    /// nil: cleartext.
    let tls: NIOSSLContext?

    func makeListeningChannel(
        listenerConfigurator: HTTP2ServerTransport.ListenerConfigurator,
        connectionConfigurator: HTTP2ServerTransport.ConnectionConfigurator
    ) async throws -> NIOAsyncChannel<HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel, Never> {
        let tls = self.tls
        return try await ServerBootstrap(group: eventLoopGroup)
            // Lets a restarted lab rebind at once despite connections lingering in TIME_WAIT.
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .serverChannelInitializer { listenerConfigurator.configure(channel: $0) }
            .bind(to: try SocketAddress(ipAddress: address, port: port)) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                }.flatMap {
                    // ALPN not required: a client that offers none still gets HTTP/2, as from grpc-go.
                    connectionConfigurator.configure(channel: channel, tls: tls == nil ? .none : .configured(requireALPN: false))
                }
            }
    }

    /// A server context for `host`'s certificates offering only "h2": its default certificate,
    /// swapped in the handshake for the one its SNI table names (`VirtualHost.identity`).
    static func context(for host: VirtualHost) throws -> NIOSSLContext {
        let fallback = host.defaultIdentity
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(fallback.certificate)], privateKey: .privateKey(fallback.privateKey))
        configuration.applicationProtocols = ["h2"]
        if !host.identitiesBySNI.isEmpty {
            configuration.sslContextCallback = { values, promise in
                let identity = host.identity(forServerName: values.serverHostname)
                guard identity.commonName != fallback.commonName else {
                    promise.succeed(.noChanges)
                    return
                }
                var override = NIOSSLContextConfigurationOverride()
                override.certificateChain = [.certificate(identity.certificate)]
                override.privateKey = .privateKey(identity.privateKey)
                promise.succeed(override)
            }
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw LabError.certificate(name: fallback.commonName, reason: "gRPC TLS context: \(error)")
        }
    }
}
