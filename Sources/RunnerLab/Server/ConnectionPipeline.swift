import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Builds the pipeline of each accepted connection: plain HTTP/1.1, or TLS with the certificate
/// chosen from the ClientHello's SNI and then HTTP/2 or HTTP/1.1 as ALPN decided.
struct ConnectionPipeline: Sendable {
    let ledger: ConnectionLedger
    let router: Router

    /// Plain HTTP: count the connection, then HTTP/1.1 straight away (no h2c).
    func plainHTTP(_ channel: any Channel, host: VirtualHost) -> EventLoopFuture<Void> {
        let connection = ConnectionInfo(id: ledger.accept(on: host.address), tls: false, channel: channel)
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(PipelineOutlet(), name: PipelineOutlet.socket)
            try addHTTP1(to: channel, connection: connection)
        }
    }

    /// TLS: sniff the ClientHello for SNI first, because the certificate depends on it; only then add
    /// the TLS handler (which replays the buffered hello), and behind it the protocol ALPN picks.
    func tls(_ channel: any Channel, host: VirtualHost) -> EventLoopFuture<Void> {
        var connection = ConnectionInfo(id: ledger.accept(on: host.address), tls: true, channel: channel)
        let pipeline = self
        let sniffer = SNIHandler { result in
            switch result {
            case .hostname(let name): connection.serverName = name
            case .fallback: connection.serverName = nil
            }
            if host.handshake == .closeAfterClientHello {
                // The whole ClientHello has been read (the sniffer needs all of it): hang up without a word.
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            let identity = host.identity(forServerName: connection.serverName)
            let negotiated = connection
            do {
                // The socket outlet and the sniffer are the only handlers so far: appending puts TLS right
                // behind them.
                let operations = channel.pipeline.syncOperations
                try operations.addHandler(
                    NIOSSLServerHandler(context: identity.context(offering: host.applicationProtocols)))
                try operations.addHandler(CloseOnErrorHandler())
                try operations.addHandler(
                    ApplicationProtocolNegotiationHandler { alpn in
                        channel.eventLoop.makeCompletedFuture {
                            try pipeline.addProtocol(alpn, to: channel, connection: negotiated)
                        }
                    })
                return channel.eventLoop.makeSucceededVoidFuture()
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(PipelineOutlet(), name: PipelineOutlet.socket)
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(sniffer))
        }
    }

    /// After the handshake: HTTP/2 when the client took "h2", otherwise HTTP/1.1 (chosen, or no ALPN at all).
    private func addProtocol(_ alpn: ALPNResult, to channel: any Channel, connection: ConnectionInfo) throws {
        switch alpn {
        case .negotiated("h2"): try addHTTP2(to: channel, connection: connection)
        case .negotiated, .fallback: try addHTTP1(to: channel, connection: connection)
        }
    }

    private func addHTTP1(to channel: any Channel, connection: ConnectionInfo) throws {
        // Behind TLS, before the HTTP handlers: where `/hostile/` writes bytes no HTTP encoder would.
        try channel.pipeline.syncOperations.addHandler(PipelineOutlet(), name: PipelineOutlet.response)
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withPipeliningAssistance: true, withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(
            HTTPRequestHandler(connection: connection, router: router, ledger: ledger, framing: .http1))
    }

    /// Each stream gets its own HTTP/1-shaped pipeline, so every endpoint serves HTTP/2 unchanged.
    private func addHTTP2(to channel: any Channel, connection: ConnectionInfo) throws {
        let router = self.router
        // libcurl resets many streams under load (RST_STREAM), which NIO's rapid-reset defence
        // (200 in 30 s) answers by closing the whole connection, failing every stream on it: the
        // lab is a test peer, not an exposed server, so it tolerates them.
        var streamConfiguration = NIOHTTP2Handler.StreamConfiguration()
        streamConfiguration.streamResetFrameRateLimit.maximumCount = Int(Int32.max)
        streamConfiguration.streamErrorRateLimit.maximumCount = Int(Int32.max)
        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: .init(), streamConfiguration: streamConfiguration
        ) { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                try stream.pipeline.syncOperations.addHandler(
                    HTTPRequestHandler(connection: connection, router: router, ledger: ledger, framing: .http2Stream))
            }
        }
        try channel.pipeline.syncOperations.addHandler(CloseOnErrorHandler())
    }
}
