import Foundation
import NIOCore
import NIOPosix

/// The listening sockets of one service (HTTP or HTTPS): one per lab address, all on the same port.
struct ListenerSet: Sendable {
    typealias Initializer = @Sendable (any Channel, VirtualHost) -> EventLoopFuture<Void>

    let service: String
    let port: Int
    let channels: [any Channel]

    /// How many kernel-chosen ports to try before giving up when the caller asked for port 0.
    static let attempts = 20

    /// Binds `service` on every host's address at `port`; port 0 picks a number free on all of them.
    static func bind(
        service: String, hosts: [VirtualHost], port: Int, group: any EventLoopGroup,
        initializer: @escaping Initializer
    ) async throws -> ListenerSet {
        guard let first = hosts.first, (0...65535).contains(port) else {
            throw LabError.cannotListen(
                service: service, address: hosts.first?.address ?? "-", port: port, reason: "port out of range")
        }
        let binder = Binder(service: service, group: group, initializer: initializer)
        do {
            if port != 0 {
                return ListenerSet(service: service, port: port, channels: try await binder.bindAll(hosts, port: port))
            }
            // Let the kernel pick a port on the first address, then claim the same number on the others;
            // something else may hold it on one of them, so start over with a new number if so.
            var lastReason = "none"
            for _ in 0..<attempts {
                let firstChannel = try await binder.bindOne(first, port: 0)
                guard let chosen = firstChannel.localAddress?.port else {
                    try? await firstChannel.close()
                    throw LabError.cannotListen(
                        service: service, address: first.address, port: 0, reason: "the kernel reported no port")
                }
                do {
                    let rest = try await binder.bindAll(Array(hosts.dropFirst()), port: chosen)
                    return ListenerSet(service: service, port: chosen, channels: [firstChannel] + rest)
                } catch let failure as BindFailure where failure.addressInUse {
                    try? await firstChannel.close()
                    lastReason = failure.reason
                } catch {
                    try? await firstChannel.close()
                    throw error
                }
            }
            throw LabError.noCommonFreePort(service: service, attempts: attempts, lastReason: lastReason)
        } catch let failure as BindFailure {
            throw failure.labError
        }
    }

    /// Plain words for the failures people actually hit; anything else as NIO describes it.
    static func reason(_ error: any Error) -> String {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE?: return "address already in use (another lab or server holds this port)"
        case EADDRNOTAVAIL?: return "address not available on this machine"
        case EACCES?: return "permission denied (ports below 1024 need privileges)"
        default: return "\(error)"
        }
    }

    /// Closes every listener; connections already accepted stay up until the event loops stop.
    func close() async {
        for channel in channels {
            try? await channel.close()
        }
    }
}

/// A bind that failed, and whether it failed only because the port is taken (worth another try).
private struct BindFailure: Error {
    let labError: LabError
    let reason: String
    let addressInUse: Bool
}

/// Binds server sockets for one service.
private struct Binder: Sendable {
    let service: String
    let group: any EventLoopGroup
    let initializer: ListenerSet.Initializer

    /// Binds every host at `port`, or none: on failure the ones already bound are closed.
    func bindAll(_ hosts: [VirtualHost], port: Int) async throws -> [any Channel] {
        var bound: [any Channel] = []
        do {
            for host in hosts {
                bound.append(try await bindOne(host, port: port))
            }
            return bound
        } catch {
            for channel in bound { try? await channel.close() }
            throw error
        }
    }

    func bindOne(_ host: VirtualHost, port: Int) async throws -> any Channel {
        let initializer = self.initializer
        let bootstrap = ServerBootstrap(group: group)
            // Lets a restarted lab rebind at once despite connections lingering in TIME_WAIT.
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in initializer(channel, host) }
        do {
            let address = try SocketAddress(ipAddress: host.address, port: port)
            return try await bootstrap.bind(to: address).get()
        } catch {
            let reason = ListenerSet.reason(error)
            throw BindFailure(
                labError: .cannotListen(service: service, address: host.address, port: port, reason: reason),
                reason: reason,
                addressInUse: (error as? IOError)?.errnoCode == EADDRINUSE)
        }
    }
}
