import ArgumentParser
import Foundation
import RunnerLab

/// `runner-lab`: runs the test lab in the foreground so the demo plan works with no network.
@main
struct RunnerLabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner-lab",
        abstract: "Serve the runner test lab (TLS virtual hosts on loopback addresses) until interrupted.")

    @Option(help: "Port for plain HTTP/1.1 on every lab address.")
    var httpPort = 18080

    @Option(help: "Port for HTTPS on every lab address.")
    var httpsPort = 18443

    @Option(help: "Port for DNS (UDP and TCP) on every lab resolver's address.")
    var dnsPort = 18053

    @Option(help: "Port for the SDK ranking connects (bare TCP) on the fast and slow rank edges.")
    var rankPort = 18090

    @Option(name: .customLong("grpc-tls-port"), help: "Port for gRPC over TLS (ALPN h2) on 127.0.0.2 and 127.0.0.3.")
    var grpcTLSPort = 18444

    @Option(name: .customLong("grpc-port"), help: "Port for gRPC in cleartext HTTP/2 (prior knowledge, h2c) on 127.0.0.2.")
    var grpcPlainPort = 18081

    @Option(name: .customLong("state-dir"), help: "Directory for ca.pem and the ready file.")
    var stateDir = ".lab"

    @Option(help: ArgumentHelp(
        "Also serve N edges like 127.0.0.2 on 127.0.1.1 to 127.0.1.N, for benches (at most \(LabAddress.maxBenchEdges)).",
        valueName: "N"))
    var benchEdges = 0

    func validate() throws {
        guard (0...LabAddress.maxBenchEdges).contains(benchEdges) else {
            throw ValidationError("--bench-edges takes 0 to \(LabAddress.maxBenchEdges), got \(benchEdges)")
        }
    }

    func run() async throws {
        let signals = TerminationSignals()
        // Fails before touching the state directory when the ports are taken, so a second instance
        // cannot clobber the CA or ready file of one already running.
        let lab = try await Lab.start(
            httpPort: httpPort, httpsPort: httpsPort, dnsPort: dnsPort, rankPort: rankPort, grpcTLSPort: grpcTLSPort,
            grpcPlainPort: grpcPlainPort, stateDirectory: stateDir, benchEdges: benchEdges)
        let readyFile = URL(fileURLWithPath: stateDir).appendingPathComponent("ready").path
        do {
            Console.write(Banner.text(lab: lab, stateDir: stateDir))
            let ready = "http_port=\(lab.httpPort)\nhttps_port=\(lab.httpsPort)\ndns_port=\(lab.dnsPort)\nrank_port=\(lab.rankPort)\n"
                + "grpc_tls_port=\(lab.grpcTLSPort)\ngrpc_port=\(lab.grpcPlainPort)\n"
            try ready.write(toFile: readyFile, atomically: true, encoding: .utf8)
        } catch {
            try? await lab.shutdown()
            throw error
        }

        let received = await signals.next()
        Console.write("runner-lab: \(received), shutting down\n")
        try? FileManager.default.removeItem(atPath: readyFile)
        try await lab.shutdown()
    }
}

/// Unbuffered stdout, so a script tailing the log sees the banner at once.
enum Console {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
