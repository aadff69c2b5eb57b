import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The lab's DNS servers on the wire: for each `LabResolver`, a UDP socket and a TCP listener at
/// its address, all on one port; every message is answered by `LabResolver.replies`.
struct LabResolverServer: Sendable {
    let port: Int
    let channels: [any Channel]
    /// Queries received, by resolver and lower-case name, counted before they are answered.
    let ledger: LabResolverLedger

    /// Binds every resolver at `port`; 0 picks a number free for UDP and TCP on every address.
    static func bind(port: Int, group: any EventLoopGroup) async throws -> LabResolverServer {
        let ledger = LabResolverLedger()
        guard port != 0 else {
            var lastReason = "none"
            for _ in 0..<ListenerSet.attempts {
                let first = try await bindUDP(.honest, port: 0, group: group, ledger: ledger)
                guard let chosen = first.localAddress?.port else {
                    try? await first.close()
                    throw LabError.cannotListen(service: "DNS", address: LabResolver.honest.address, port: 0, reason: "the kernel reported no port")
                }
                do {
                    let rest = try await bindAll(port: chosen, group: group, ledger: ledger, skippingFirstUDP: true)
                    return LabResolverServer(port: chosen, channels: [first] + rest, ledger: ledger)
                } catch let error as LabError {
                    try? await first.close()
                    lastReason = "\(error)"
                }
            }
            throw LabError.noCommonFreePort(service: "DNS", attempts: ListenerSet.attempts, lastReason: lastReason)
        }
        return LabResolverServer(
            port: port, channels: try await bindAll(port: port, group: group, ledger: ledger, skippingFirstUDP: false),
            ledger: ledger)
    }

    /// Closes every socket.
    func close() async {
        for channel in channels { try? await channel.close() }
    }

    private static func bindAll(
        port: Int, group: any EventLoopGroup, ledger: LabResolverLedger, skippingFirstUDP: Bool
    ) async throws -> [any Channel] {
        var bound: [any Channel] = []
        do {
            for resolver in LabResolver.allCases {
                if !(skippingFirstUDP && resolver == .honest) {
                    bound.append(try await bindUDP(resolver, port: port, group: group, ledger: ledger))
                }
                bound.append(try await bindTCP(resolver, port: port, group: group, ledger: ledger))
            }
            return bound
        } catch {
            for channel in bound { try? await channel.close() }
            throw error
        }
    }

    private static func bindUDP(
        _ resolver: LabResolver, port: Int, group: any EventLoopGroup, ledger: LabResolverLedger
    ) async throws -> any Channel {
        let bootstrap = DatagramBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramHandler(resolver: resolver, ledger: ledger))
                }
            }
        return try await bound(resolver, port: port, transport: "UDP") {
            try await bootstrap.bind(to: try SocketAddress(ipAddress: resolver.address, port: port)).get()
        }
    }

    private static func bindTCP(
        _ resolver: LabResolver, port: Int, group: any EventLoopGroup, ledger: LabResolverLedger
    ) async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(DNSStreamFramer()))
                    try channel.pipeline.syncOperations.addHandler(StreamHandler(resolver: resolver, ledger: ledger))
                }
            }
        return try await bound(resolver, port: port, transport: "TCP") {
            try await bootstrap.bind(to: try SocketAddress(ipAddress: resolver.address, port: port)).get()
        }
    }

    /// `bind`'s channel, or the lab's error saying which resolver, address and port failed.
    private static func bound(
        _ resolver: LabResolver, port: Int, transport: String, _ bind: () async throws -> any Channel
    ) async throws -> any Channel {
        do {
            return try await bind()
        } catch {
            throw LabError.cannotListen(
                service: "DNS (\(resolver.rawValue), \(transport))", address: resolver.address, port: port,
                reason: ListenerSet.reason(error))
        }
    }
}

/// Queries each lab resolver received, by lower-case name without the trailing dot.
final class LabResolverLedger: Sendable {
    private let counts = NIOLockedValueBox([LabResolver: [String: Int]]())

    func record(_ message: [UInt8], at resolver: LabResolver) {
        guard let query = try? LDNSCodec.query(from: message) else { return }
        let name = LabDNS.canonicalName(query.name)
        counts.withLockedValue { $0[resolver, default: [:]][name, default: 0] += 1 }
    }

    func queries(at resolver: LabResolver, name: String) -> Int {
        counts.withLockedValue { $0[resolver]?[LabDNS.canonicalName(name)] ?? 0 }
    }
}

/// One datagram in, its replies out to where it came from.
private final class DatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    let resolver: LabResolver
    let ledger: LabResolverLedger

    init(resolver: LabResolver, ledger: LabResolverLedger) {
        self.resolver = resolver
        self.ledger = ledger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let message = Array(envelope.data.readableBytesView)
        ledger.record(message, at: resolver)
        for reply in resolver.replies(to: message, over: .udp) {
            let out = AddressedEnvelope(remoteAddress: envelope.remoteAddress, data: context.channel.allocator.buffer(bytes: reply))
            context.write(wrapOutboundOut(out), promise: nil)
        }
        context.flush()
    }
}

/// One framed message in (`DNSStreamFramer`), its replies out with their length prefixes.
private final class StreamHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = [UInt8]
    typealias OutboundOut = ByteBuffer

    let resolver: LabResolver
    let ledger: LabResolverLedger

    init(resolver: LabResolver, ledger: LabResolverLedger) {
        self.resolver = resolver
        self.ledger = ledger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        ledger.record(message, at: resolver)
        for reply in resolver.replies(to: message, over: .tcp) {
            var buffer = context.channel.allocator.buffer(capacity: reply.count + 2)
            buffer.writeInteger(UInt16(reply.count))
            buffer.writeBytes(reply)
            context.write(wrapOutboundOut(buffer), promise: nil)
        }
        context.flush()
    }
}

/// DNS over a stream (RFC 1035 §4.2.2): each message after its two-byte length.
struct DNSStreamFramer: ByteToMessageDecoder {
    typealias InboundOut = [UInt8]

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self),
            buffer.readableBytes >= 2 + Int(length)
        else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 2)
        guard let message = buffer.readBytes(length: Int(length)) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }
}
