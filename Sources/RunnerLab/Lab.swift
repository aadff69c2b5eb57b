import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An in-process test lab: real HTTP and TLS virtual hosts on loopback addresses (see `LabAddress`),
/// with certificates issued at start-up by a throwaway CA.
///
/// Every address listens on `httpPort` (plain HTTP/1.1) and `httpsPort` (TLS, ALPN "h2" and "http/1.1";
/// "http/1.1" only on `LabAddress.replica`) and serves the same endpoints, identically over HTTP/1.1 and
/// HTTP/2: `/echo`, `/status/{code}`, `/delay/{ms}`, `/bytes/{n}`, `/json`, `/headers`; redirects
/// (`/redirect/{code}?to=…[&set-cookie=…]`, `/redirect-chain/{n}`, `/redirect-loop`, all with the body
/// "redirect body — must not be reported"); cookies (`/cookies/set?name=value&…[&attrs=…]`, `/cookies`);
/// and an HTTPDNS service in six formats under `/httpdns/` and at `/dns-query` (see `LabDNS`).
///
/// Over HTTP/1.x (plain HTTP, or TLS where ALPN chose http/1.1) it also misbehaves on request, to prove
/// clients survive broken servers: `/hostile/silent` (never answers), `/hostile/stall` (10 of 1000 promised
/// bytes, then nothing), `/hostile/drip` (1000 bytes at one per second), `/hostile/reset` (64 KiB of a
/// promised 1 MiB, then a TCP reset), `/hostile/huge-headers` (a 1 MiB header block),
/// `/hostile/endless` (chunked, never ends, ~3 MiB/s at most), `/hostile/http10` (an HTTP/1.0 answer
/// ended by close) and `/hostile/bad-status` (status "2OO"). HTTP/2 streams answer those paths with a 501.
/// `LabAddress.handshakeCloser` hangs up on every TLS handshake.
///
/// For an SDK's ranking connects, `rankPort` takes bare TCP handshakes on `LabAddress.fastRankEdge`
/// (at once) and `LabAddress.slowRankEdge` (in about 1 s); nothing listens on
/// `LabAddress.deadRankEdge` (see `RankListeners`).
///
/// gRPC (grpc-swift, issue 48) has ports of its own: `grpcTLSPort` on `LabAddress.primary` and
/// `LabAddress.sniOnly` (TLS, ALPN "h2", the HTTPS port's certificates chosen the same way) and
/// `grpcPlainPort` on `LabAddress.primary` (cleartext HTTP/2 with prior knowledge). They serve
/// `grpc.health.v1.Health/Check`, `lab.Echo/Echo` and `lab.Echo/Fail` (see `LabGRPC`). A gRPC call
/// to `LabAddress.replica`'s `httpsPort` gets HTTP/1.1: the HTTP/1.1-only gRPC endpoint.
public final class Lab: Sendable {
    /// The plain HTTP port, the same on every lab address.
    public let httpPort: Int
    /// The TLS port, the same on every lab address.
    public let httpsPort: Int
    /// The ranking port: a TCP handshake (nothing served) on `LabAddress.fastRankEdge` completes at
    /// once, on `LabAddress.slowRankEdge` in about 1 s; no other address listens on it. A lab plan
    /// names it `{{rank}}` (`LabPlans.fill`), `runner-lab` `--rank-port` (18090) and `rank_port=`
    /// in its ready file.
    public var rankPort: Int { rank.port }
    /// gRPC over TLS (ALPN "h2") on `LabAddress.primary` (api.lab.test whatever the SNI) and
    /// `LabAddress.sniOnly` (sni.lab.test by SNI, default.lab.test otherwise). A lab plan names it
    /// `{{grpc_tls}}` (`LabPlans.fill`), `runner-lab` `--grpc-tls-port` (18444) and
    /// `grpc_tls_port=` in its ready file.
    public var grpcTLSPort: Int { grpc.tlsPort }
    /// gRPC in cleartext HTTP/2 with prior knowledge (h2c) on `LabAddress.primary`: `{{grpc}}`,
    /// `runner-lab` `--grpc-port` (18081), `grpc_port=`.
    public var grpcPlainPort: Int { grpc.plainPort }
    /// The DNS port (UDP and TCP) of every lab resolver (`LabResolver`).
    public var dnsPort: Int { resolvers.port }
    /// Path of the CA certificate PEM that clients should trust.
    public let caFile: String
    /// The CA certificate, PEM.
    public let caPEM: String
    /// The leaf api.lab.test presents at `LabAddress.primary` and at `LabAddress.staleEdge` (a
    /// second key), PEM: what a pin is computed from.
    public let primaryLeafPEM: String
    public let staleLeafPEM: String
    /// The leaf `LabAddress.ipOnly` presents (no name, its IP only), PEM.
    public let ipOnlyLeafPEM: String

    private let group: MultiThreadedEventLoopGroup
    private let listeners: [ListenerSet]
    private let resolvers: LabResolverServer
    private let rank: RankListeners
    private let grpc: LabGRPCServers
    private let ledger: ConnectionLedger
    private let httpdnsLedger: HTTPDNSLedger
    private let sessions: SessionLedger
    /// The temporary state directory the lab made for itself, removed at shutdown.
    private let temporaryDirectory: String?
    private let isShutDown = NIOLockedValueBox(false)

    private init(
        httpPort: Int, httpsPort: Int, caFile: String, caPEM: String, leafPEMs: (primary: String, stale: String, ipOnly: String),
        group: MultiThreadedEventLoopGroup,
        listeners: [ListenerSet], resolvers: LabResolverServer, rank: RankListeners, grpc: LabGRPCServers, ledger: ConnectionLedger, httpdnsLedger: HTTPDNSLedger,
        sessions: SessionLedger, temporaryDirectory: String?
    ) {
        self.httpPort = httpPort
        self.httpsPort = httpsPort
        self.caFile = caFile
        self.caPEM = caPEM
        self.primaryLeafPEM = leafPEMs.primary
        self.staleLeafPEM = leafPEMs.stale
        self.ipOnlyLeafPEM = leafPEMs.ipOnly
        self.group = group
        self.listeners = listeners
        self.resolvers = resolvers
        self.rank = rank
        self.grpc = grpc
        self.ledger = ledger
        self.httpdnsLedger = httpdnsLedger
        self.sessions = sessions
        self.temporaryDirectory = temporaryDirectory
    }

    /// Issues the certificates, listens on every lab address, on the rank edges' `rankPort`, on
    /// the gRPC ports (`grpcTLSPort`, `grpcPlainPort`; their servers listen when it returns) and
    /// starts the lab's resolvers (a port of 0 picks one number free on all of them), then writes `ca.pem` (and the leaves `api.pem` and `stale.pem`) into `stateDirectory` (a
    /// fresh temporary directory when `nil`).
    ///
    /// `benchEdges`: that many more addresses, 127.0.1.1 on (`LabAddress.benchEdge`), each like
    /// the primary edge, at most `LabAddress.maxBenchEdges`.
    public static func start(
        httpPort: Int = 0, httpsPort: Int = 0, dnsPort: Int = 0, rankPort: Int = 0, grpcTLSPort: Int = 0, grpcPlainPort: Int = 0,
        stateDirectory: String? = nil,
        benchEdges: Int = 0
    ) async throws -> Lab {
        let certificates = try LabCertificates.generate()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let ledger = ConnectionLedger()
        let httpdnsLedger = HTTPDNSLedger()
        let sessions = SessionLedger()
        let pipeline = ConnectionPipeline(ledger: ledger, router: .standard(httpdns: httpdnsLedger, sessions: sessions))
        let hosts = VirtualHost.labHosts(certificates, benchEdges: min(max(0, benchEdges), LabAddress.maxBenchEdges))
        var listeners: [ListenerSet] = []
        var resolverServer: LabResolverServer?
        var rankListeners: RankListeners?
        var grpcServers: LabGRPCServers?
        do {
            let http = try await ListenerSet.bind(service: "HTTP", hosts: hosts, port: httpPort, group: group) {
                pipeline.plainHTTP($0, host: $1)
            }
            listeners.append(http)
            let https = try await ListenerSet.bind(service: "HTTPS", hosts: hosts, port: httpsPort, group: group) {
                pipeline.tls($0, host: $1)
            }
            listeners.append(https)
            let resolvers = try await LabResolverServer.bind(port: dnsPort, group: group)
            resolverServer = resolvers
            let rank = try RankListeners.start(port: rankPort)
            rankListeners = rank
            let grpc = try await LabGRPCServers.start(
                hosts: hosts, tlsPort: grpcTLSPort, plainPort: grpcPlainPort, group: group)
            grpcServers = grpc

            // Written only once the ports are ours: a lab that fails to start must not replace the CA
            // of one already running with the same state directory.
            let state = try StateDirectory.prepare(stateDirectory)
            let caFile: String
            do {
                caFile = try state.write(certificates.authority.pem, to: "ca.pem")
                // The leaves whose keys a pin set names: the current one and the stale edge's.
                _ = try state.write(certificates.primary.certificatePEM, to: "api.pem")
                _ = try state.write(certificates.stale.certificatePEM, to: "stale.pem")
            } catch {
                state.removeIfTemporary()
                throw error
            }
            return Lab(
                httpPort: http.port, httpsPort: https.port, caFile: caFile, caPEM: certificates.authority.pem,
                leafPEMs: (certificates.primary.certificatePEM, certificates.stale.certificatePEM, certificates.ipOnly.certificatePEM),
                group: group, listeners: listeners, resolvers: resolvers, rank: rank, grpc: grpc, ledger: ledger, httpdnsLedger: httpdnsLedger,
                sessions: sessions,
                temporaryDirectory: state.isTemporary ? state.path : nil)
        } catch {
            for listener in listeners { await listener.close() }
            await resolverServer?.close()
            rankListeners?.close()
            await grpcServers?.close()
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// DNS queries `resolver` has received for `name` since start (UDP and TCP), counted before
    /// they are answered.
    public func resolverQueries(_ resolver: LabResolver, name: String) -> Int {
        resolvers.ledger.queries(at: resolver, name: name)
    }

    /// Requests for `path` (without the query) the lab has read whole since start, on every
    /// address and transport, counted before they are answered.
    public func requestsReceived(path: String) -> Int {
        ledger.requests(path: path)
    }

    /// The latest requests (up to 4,096 kept) whose target — path and query — is `target`
    /// exactly, as they arrived: address, SNI, Host, method and body digest.
    public func requestsArrived(target: String) -> [LabArrival] {
        ledger.arrivals(target: target)
    }

    /// TCP connections accepted on `ip`'s `rankPort` since start (each closed at once): the ranking
    /// connects that reached `LabAddress.fastRankEdge` or `LabAddress.slowRankEdge`; 0 elsewhere.
    public func rankConnectsAccepted(on ip: String) -> Int {
        rank.accepted(on: ip)
    }

    /// First SYNs `LabAddress.slowRankEdge`'s `rankPort` has dropped since start: each a connect
    /// that then took the client's retransmission timeout.
    public var rankConnectsHeldBack: Int { rank.heldBack }

    /// Logins `/session/login` accepted since start.
    public var loginsAccepted: Int { sessions.logins }

    /// The bearer tokens those logins handed out (a test checks that none shows in an output).
    public var sessionTokens: [String] { sessions.tokens }

    /// TCP connections accepted on `ip` (HTTP and HTTPS together) since start; 0 for unknown addresses.
    public func connectionsAccepted(on ip: String) -> Int {
        ledger.accepted(on: ip)
    }

    /// HTTPDNS lookups of `host` since start, in every format, counted as each request arrives (so lookups
    /// that never got an answer count too); the name is matched without regard to case or a trailing dot.
    public func httpdnsLookups(host: String) -> Int {
        httpdnsLedger.lookups(of: host, format: nil)
    }

    /// HTTPDNS lookups of `host` in one format since start, the format named by its `LabDNS.Format` raw value
    /// ("dnspod", "alibaba", "doh-json", "volcengine", "json", "doh"); 0 for other names.
    public func httpdnsLookups(format: String, host: String) -> Int {
        guard let format = LabDNS.Format(rawValue: format) else { return 0 }
        return httpdnsLookups(format: format, host: host)
    }

    /// HTTPDNS lookups of `host` in `format` since start.
    public func httpdnsLookups(format: LabDNS.Format, host: String) -> Int {
        httpdnsLedger.lookups(of: host, format: format)
    }

    /// Stops listening, closes every open connection and frees the ports; calling it again does nothing.
    public func shutdown() async throws {
        let alreadyDown = isShutDown.withLockedValue { down in
            defer { down = true }
            return down
        }
        if alreadyDown { return }
        for listener in listeners { await listener.close() }
        await resolvers.close()
        rank.close()
        // Before the loops stop: the servers' tasks end once their connections have closed.
        await grpc.close()
        // Stopping the loops closes the connections still open (keep-alive, hanging requests).
        try await group.shutdownGracefully()
        if let temporaryDirectory {
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
    }
}
