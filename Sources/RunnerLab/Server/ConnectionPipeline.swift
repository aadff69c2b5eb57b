import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// Builds the pipeline of each accepted connection: plain HTTP/1.1, or TLS with the certificate
/// chosen from the ClientHello's SNI.
struct ConnectionPipeline: Sendable {
    let ledger: ConnectionLedger
    let router: Router

    /// Plain HTTP: count the connection, then HTTP/1.1 straight away.
    func plainHTTP(_ channel: any Channel, host: VirtualHost) -> EventLoopFuture<Void> {
        let connection = ConnectionInfo(id: ledger.accept(on: host.address), tls: false, channel: channel)
        return channel.eventLoop.makeCompletedFuture {
            try addHTTP(to: channel, connection: connection)
        }
    }

    /// TLS: sniff the ClientHello for SNI first, because the certificate depends on it; only then add
    /// the TLS handler (which replays the buffered hello) and HTTP behind it.
    func tls(_ channel: any Channel, host: VirtualHost) -> EventLoopFuture<Void> {
        var connection = ConnectionInfo(id: ledger.accept(on: host.address), tls: true, channel: channel)
        let pipeline = self
        let sniffer = SNIHandler { result in
            switch result {
            case .hostname(let name): connection.serverName = name
            case .fallback: connection.serverName = nil
            }
            let identity = host.identity(forServerName: connection.serverName)
            do {
                // The sniffer is the only handler so far: appending puts TLS right behind it.
                try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: identity.context))
                try pipeline.addHTTP(to: channel, connection: connection)
                return channel.eventLoop.makeSucceededVoidFuture()
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(sniffer))
        }
    }

    private func addHTTP(to channel: any Channel, connection: ConnectionInfo) throws {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withPipeliningAssistance: true, withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(HTTPRequestHandler(connection: connection, router: router))
    }
}
