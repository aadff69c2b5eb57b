import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
@testable import RunnerLab
import Testing

/// Where a gRPC client connects: an address and port of the lab, the name it asks for (SNI and
/// :authority; nil: none, the address itself) and whether TLS.
struct GRPCTarget: CustomTestStringConvertible, Sendable {
    enum Port: Sendable { case tls, plain }

    let address: String
    let port: Port
    let serverName: String?

    var testDescription: String { "\(port == .tls ? "TLS" : "h2c") \(address) \(serverName ?? "no SNI")" }

    func port(of lab: Lab) -> Int { port == .tls ? lab.grpcTLSPort : lab.grpcPlainPort }

    /// Every gRPC endpoint a name verifies at: the h2c port, and TLS on the primary (with and
    /// without SNI: its certificate has the IP) and on the SNI host (with its name).
    static let all: [GRPCTarget] = [
        .init(address: LabAddress.primary, port: .plain, serverName: nil),
        .init(address: LabAddress.primary, port: .tls, serverName: "api.lab.test"),
        .init(address: LabAddress.primary, port: .tls, serverName: nil),
        .init(address: LabAddress.sniOnly, port: .tls, serverName: "sni.lab.test"),
    ]
}

/// grpc-swift's own client against the lab: a call with a deadline (10 s).
enum LabGRPCClient {
    static func call<Request: Sendable, Response: Sendable>(
        _ target: GRPCTarget, lab: Lab, method: MethodDescriptor, request: Request,
        serializer: LabMessageCodec<Request>, deserializer: LabMessageCodec<Response>
    ) async throws -> Result<Response, RPCError> {
        let security: HTTP2ClientTransport.Posix.TransportSecurity
        switch target.port {
        case .plain: security = .plaintext
        case .tls:
            security = .tls { tls in
                tls.trustRoots = .certificates([.bytes(Array(lab.caPEM.utf8), format: .pem)])
            }
        }
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: target.address, port: target.port(of: lab)), transportSecurity: security,
            config: .defaults { config in
                config.http2.authority = target.serverName
                // A refused or failed connect fails the call instead of being tried again until the deadline.
                config.backoff.initial = .seconds(30)
            })
        var options = CallOptions.defaults
        options.timeout = .seconds(10)
        options.waitForReady = false
        return try await withGRPCClient(transport: transport) { client in
            try await client.unary(
                request: ClientRequest(message: request), descriptor: method, serializer: serializer,
                deserializer: deserializer, options: options
            ) { response in response.accepted.flatMap(\.message) }
        }
    }

    static func health(_ service: String, at target: GRPCTarget, lab: Lab) async throws -> Result<LabHealthCheckResponse.ServingStatus, RPCError> {
        try await call(
            target, lab: lab, method: LabGRPC.health, request: LabHealthCheckRequest(service: service),
            serializer: .healthCheckRequest, deserializer: .healthCheckResponse
        ).map(\.status)
    }
}

/// A gRPC request message as it goes on the wire: uncompressed flag, 4-byte length, message.
func grpcFrame(_ message: [UInt8]) -> Data {
    let length = UInt32(message.count)
    return Data([0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + message)
}

/// curl's gRPC call (HTTP/2 POST, application/grpc, te: trailers) of `method` with `message`;
/// `-D -` prints the response head, then the body, then the trailers.
func curlGRPC(_ method: String, message: [UInt8], _ arguments: [String]) async throws -> CommandResult {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-\(UUID().uuidString).bin")
    try grpcFrame(message).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await Command.curl(
        ["--dump-header", "-", "--data-binary", "@\(file.path)", "--header", "content-type: application/grpc",
         "--header", "te: trailers"] + arguments.map { $0.replacingOccurrences(of: "{method}", with: method) })
}

@Suite(.timeLimit(.minutes(3))) struct GRPCHealthTests {
    @Test(arguments: GRPCTarget.all)
    func healthAnswersByServiceName(_ target: GRPCTarget) async throws {
        let lab = try await StatelessLab.get()
        #expect(try await LabGRPCClient.health("", at: target, lab: lab) == .success(.serving))
        #expect(try await LabGRPCClient.health("payments", at: target, lab: lab) == .success(.serving))
        #expect(try await LabGRPCClient.health("inventory", at: target, lab: lab) == .success(.notServing))
        let unknown = try await LabGRPCClient.health("billing", at: target, lab: lab)
        #expect(unknown.failure?.code == .notFound, "\(unknown)")
        #expect(unknown.failure?.message == "unknown service 'billing'")
    }

    @Test func echoReturnsTheRequestBytes() async throws {
        let lab = try await StatelessLab.get()
        // Any bytes, not only protobuf: zeros, 0xFF and a length prefix look-alike.
        let message: [UInt8] = [0, 0xFF, 0x0A, 0x08] + Array("ping".utf8) + [0, 0, 0, 0, 5]
        for target in GRPCTarget.all {
            let echoed = try await LabGRPCClient.call(
                target, lab: lab, method: LabGRPC.echo, request: message, serializer: .bytes, deserializer: .bytes)
            #expect(echoed == .success(message), "\(target.testDescription)")
        }
        let empty = try await LabGRPCClient.call(
            GRPCTarget.all[0], lab: lab, method: LabGRPC.echo, request: [], serializer: .bytes, deserializer: .bytes)
        #expect(empty == .success([]))
    }

    @Test func failAnswersUnavailableWithItsMessageDecoded() async throws {
        let lab = try await StatelessLab.get()
        let failed = try await LabGRPCClient.call(
            GRPCTarget.all[1], lab: lab, method: LabGRPC.fail, request: [1, 2, 3], serializer: .bytes, deserializer: .bytes)
        #expect(failed.failure?.code == .unavailable, "\(failed)")
        #expect(failed.failure?.message == "edge is draining: 50% done")
        #expect(LabGRPC.failMessage == "edge is draining: 50% done")
    }

    @Test func anUnknownMethodIsUnimplemented() async throws {
        let lab = try await StatelessLab.get()
        for method in [
            MethodDescriptor(fullyQualifiedService: "lab.Echo", method: "Nope"),
            MethodDescriptor(fullyQualifiedService: "grpc.health.v1.Health", method: "Watch"),
        ] {
            let answer = try await LabGRPCClient.call(
                GRPCTarget.all[0], lab: lab, method: method, request: [], serializer: .bytes, deserializer: .bytes)
            #expect(answer.failure?.code == .unimplemented, "\(method): \(answer)")
        }
    }

    @Test func thePublicMethodNamesAreTheServedOnes() {
        #expect(LabGRPC.health.fullyQualifiedMethod == LabGRPC.healthMethod)
        #expect(LabGRPC.echo.fullyQualifiedMethod == LabGRPC.echoMethod)
        #expect(LabGRPC.fail.fullyQualifiedMethod == LabGRPC.failMethod)
    }
}

/// What goes on the wire, seen by a client that is not grpc-swift (curl with nghttp2).
@Suite(.timeLimit(.minutes(3))) struct GRPCWireTests {
    @Test func theH2cPortAnswersAHealthCheckWithTrailers() async throws {
        let lab = try await StatelessLab.get()
        let result = try await curlGRPC(
            LabGRPC.healthMethod, message: LabHealthCheckRequest(service: "payments").protobuf,
            ["--http2-prior-knowledge", "--write-out", "%{http_version}", "http://\(LabAddress.primary):\(lab.grpcPlainPort)/{method}"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let (head, rest) = split(result.output)
        #expect(head.hasPrefix("HTTP/2 200 \r\n"), "\(head)")
        #expect(head.lowercased().contains("content-type: application/grpc\r\n"), "\(head)")
        #expect(!head.contains("grpc-status"), "a message answer keeps its status for the trailers: \(head)")
        // The message (SERVING: field 1 = 1), then the trailers, then curl's %{http_version}.
        #expect(rest.prefix(7) == Data([0, 0, 0, 0, 2, 0x08, 0x01]), "\(Array(rest))")
        let trailers = String(decoding: rest.dropFirst(7), as: UTF8.self)
        #expect(trailers.contains("grpc-status: 0\r\n"), "\(trailers)")
        #expect(trailers.hasSuffix("2"), "HTTP/2 with prior knowledge: \(trailers)")
    }

    @Test func anUnknownServiceIsTrailersOnly() async throws {
        let lab = try await StatelessLab.get()
        let result = try await curlGRPC(
            LabGRPC.healthMethod, message: LabHealthCheckRequest(service: "billing").protobuf,
            ["--http2-prior-knowledge", "http://\(LabAddress.primary):\(lab.grpcPlainPort)/{method}"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let (head, rest) = split(result.output)
        // One header block with the status in it, and nothing after: no message, no trailers.
        #expect(head.hasPrefix("HTTP/2 200 \r\n"), "\(head)")
        #expect(head.contains("grpc-status: 5\r\n"), "\(head)")
        #expect(head.contains("grpc-message: unknown service 'billing'\r\n"), "\(head)")
        #expect(rest.isEmpty, "\(String(decoding: rest, as: UTF8.self))")
    }

    @Test func failsMessageIsPercentEncodedOnTheWire() async throws {
        let lab = try await StatelessLab.get()
        let result = try await curlGRPC(
            LabGRPC.failMethod, message: [], ["--http2-prior-knowledge", "http://\(LabAddress.primary):\(lab.grpcPlainPort)/{method}"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let (head, _) = split(result.output)
        #expect(head.contains("grpc-status: 14\r\n"), "\(head)")
        #expect(head.contains("grpc-message: edge is draining: 50%25 done\r\n"), "\(head)")
    }

    /// `LabAddress.sniOnly`'s gRPC port, as the runner's strategies reach it: with SNI
    /// sni.lab.test the handshake verifies for that name (sni-resolve); without SNI it presents
    /// default.lab.test, so a client checking the name sni.lab.test fails (trust-override).
    @Test func theSNIHostPicksItsCertificateBySNI() async throws {
        let lab = try await StatelessLab.get()
        let port = lab.grpcTLSPort
        let message = LabHealthCheckRequest(service: "").protobuf
        let bySNI = try await curlGRPC(
            LabGRPC.healthMethod, message: message,
            ["--http2", "--cacert", lab.caFile, "--verbose", "--connect-to", "sni.lab.test:\(port):\(LabAddress.sniOnly):\(port)",
             "https://sni.lab.test:\(port)/{method}"])
        #expect(bySNI.exitCode == 0, "\(bySNI.errorOutput)")
        #expect(bySNI.errorOutput.contains("CN=sni.lab.test"), "\(bySNI.errorOutput)")
        #expect(bySNI.errorOutput.contains("ALPN: server accepted h2"), "\(bySNI.errorOutput)")
        let (head, rest) = split(bySNI.output)
        #expect(head.hasPrefix("HTTP/2 200 \r\n"), "\(head)")
        #expect(String(decoding: rest, as: UTF8.self).contains("grpc-status: 0\r\n"))

        // No SNI (an IP in the URL): the default certificate, which does not name sni.lab.test.
        let withoutSNI = try await curlGRPC(
            LabGRPC.healthMethod, message: message,
            ["--http2", "--insecure", "--verbose", "https://\(LabAddress.sniOnly):\(port)/{method}"])
        #expect(withoutSNI.exitCode == 0, "\(withoutSNI.errorOutput)")
        #expect(withoutSNI.errorOutput.contains("CN=default.lab.test"), "\(withoutSNI.errorOutput)")
        let checked = try await Command.run(
            "openssl", ["s_client", "-connect", "\(LabAddress.sniOnly):\(port)", "-noservername", "-alpn", "h2",
                        "-CAfile", lab.caFile, "-verify_hostname", "sni.lab.test", "-verify_return_error"])
        #expect(checked.exitCode != 0, "a client checking sni.lab.test against default.lab.test must refuse: \(checked.text)")
        #expect(checked.text.contains("hostname mismatch"), "\(checked.text)")

        // The primary presents api.lab.test whatever the SNI, and it verifies for the IP too.
        let primary = try await curlGRPC(
            LabGRPC.healthMethod, message: message,
            ["--http2", "--cacert", lab.caFile, "--verbose", "https://\(LabAddress.primary):\(port)/{method}"])
        #expect(primary.exitCode == 0, "\(primary.errorOutput)")
        #expect(primary.errorOutput.contains("CN=api.lab.test"), "\(primary.errorOutput)")
    }

    /// The HTTP/1.1-only gRPC endpoint: `LabAddress.replica`'s HTTPS port offers http/1.1 alone, so
    /// a gRPC call there, offering h2, gets an HTTP/1.1 answer with no gRPC status.
    @Test func theReplicaAnswersAGRPCCallInHTTP1() async throws {
        let lab = try await StatelessLab.get()
        let port = lab.httpsPort
        let result = try await curlGRPC(
            LabGRPC.healthMethod, message: LabHealthCheckRequest(service: "").protobuf,
            ["--http2", "--cacert", lab.caFile, "--verbose", "--write-out", "\n%{http_version}",
             "--connect-to", "api.lab.test:\(port):\(LabAddress.replica):\(port)", "https://api.lab.test:\(port)/{method}"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.text.hasSuffix("\n1.1"), "\(result.text)")
        #expect(result.text.hasPrefix("HTTP/1.1 "), "\(result.text)")
        #expect(!result.text.contains("grpc-status"), "\(result.text)")
        #expect(result.errorOutput.contains("ALPN: server accepted http/1.1"), "\(result.errorOutput)")
    }

    /// curl's `-D -` output split at the end of the response head: the head, and what follows.
    private func split(_ output: Data) -> (head: String, rest: Data) {
        guard let end = output.range(of: Data("\r\n\r\n".utf8)) else { return (String(decoding: output, as: UTF8.self), Data()) }
        return (String(decoding: output[..<end.upperBound], as: UTF8.self), Data(output[end.upperBound...]))
    }
}

@Suite struct HealthMessageTests {
    @Test func requestsEncodeAsProtobufDoes() throws {
        #expect(LabHealthCheckRequest(service: "").protobuf == [])
        #expect(LabHealthCheckRequest(service: "payments").protobuf == [0x0A, 8] + Array("payments".utf8))
        let long = String(repeating: "s", count: 200)
        #expect(LabHealthCheckRequest(service: long).protobuf.prefix(3) == [0x0A, 0xC8, 0x01])
        #expect(try LabHealthCheckRequest(protobuf: LabHealthCheckRequest(service: long).protobuf).service == long)
        // Unknown fields (a varint, a fixed64, a string) are skipped; the last field 1 wins.
        let withExtras: [UInt8] = [0x10, 0x96, 0x01, 0x19] + Array(repeating: 0, count: 8) + [0x0A, 1, 0x61, 0x22, 0, 0x0A, 1, 0x62]
        #expect(try LabHealthCheckRequest(protobuf: withExtras).service == "b")
        #expect(throws: (any Error).self) { try LabHealthCheckRequest(protobuf: [0x0A, 5, 0x61]) }
        #expect(throws: (any Error).self) { try LabHealthCheckRequest(protobuf: [0x0A, 1, 0xFF]) }
    }

    @Test func responsesEncodeAsProtobufDoes() throws {
        #expect(LabHealthCheckResponse(status: .unknown).protobuf == [])
        #expect(LabHealthCheckResponse(status: .serving).protobuf == [0x08, 1])
        #expect(LabHealthCheckResponse(status: .notServing).protobuf == [0x08, 2])
        #expect(LabHealthCheckResponse(status: .serviceUnknown).protobuf == [0x08, 3])
        #expect(try LabHealthCheckResponse(protobuf: []).status == .unknown)
        #expect(try LabHealthCheckResponse(protobuf: [0x08, 2]).status == .notServing)
        #expect(try LabHealthCheckResponse(protobuf: [0x08, 0x80, 0x01]).status == .unrecognized(128))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

@Suite(.timeLimit(.minutes(3))) struct GRPCLifecycleTests {
    @Test func shutdownEndsOpenGRPCConnectionsAndFreesThePorts() async throws {
        let lab = try await Lab.start()
        let (tlsPort, plainPort) = (lab.grpcTLSPort, lab.grpcPlainPort)
        #expect(Set([lab.httpPort, lab.httpsPort, tlsPort, plainPort]).count == 4)
        // A client whose connection stays open after its call, as grpc-swift's does.
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: LabAddress.primary, port: plainPort), transportSecurity: .plaintext)
        var options = CallOptions.defaults
        options.timeout = .seconds(10)
        let elapsed = try await withGRPCClient(transport: transport) { client in
            let status = try await client.unary(
                request: ClientRequest(message: LabHealthCheckRequest(service: "payments")), descriptor: LabGRPC.health,
                serializer: LabMessageCodec.healthCheckRequest, deserializer: LabMessageCodec.healthCheckResponse,
                options: options
            ) { try $0.message.status }
            #expect(status == .serving)
            let clock = ContinuousClock()
            let started = clock.now
            try await lab.shutdown()
            return clock.now - started
        }
        #expect(elapsed < .seconds(15), "the graceful stop waits for no idle connection")

        let refused = try await Command.curl(["--http2-prior-knowledge", "http://\(LabAddress.primary):\(plainPort)/"])
        #expect(refused.exitCode == 7, "\(refused.errorOutput)")
        let again = try await Lab.start(grpcTLSPort: tlsPort, grpcPlainPort: plainPort)
        defer { Task { try? await again.shutdown() } }
        #expect(again.grpcTLSPort == tlsPort)
        #expect(again.grpcPlainPort == plainPort)
        #expect(try await LabGRPCClient.health("", at: GRPCTarget.all[3], lab: again) == .success(.serving))

        // Taken now: a second lab on the same gRPC port says which and why.
        let error = await #expect(throws: LabError.self) {
            let second = try await Lab.start(grpcPlainPort: plainPort)
            try await second.shutdown()
        }
        #expect(
            error.map { "\($0)" }
                == "lab: cannot listen for gRPC on 127.0.0.2:\(plainPort): "
                + "address already in use (another lab or server holds this port)")
        try await again.shutdown()
    }
}
