import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// The `runner-lab` executable: what its banner tells about the gRPC ports, and that it stops on SIGTERM.
@Suite("runner-lab command", .timeLimit(.minutes(3)))
struct RunnerLabCommandTests {
    @Test func theBannerNamesTheGRPCPortsAndMethods() async throws {
        let state = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let output = try await PackageExecutable.run(
            "runner-lab",
            ["--http-port", "0", "--https-port", "0", "--dns-port", "0", "--rank-port", "0", "--grpc-tls-port", "0",
             "--grpc-port", "0", "--state-dir", state.path],
            signal: .init(SIGTERM, .whenStdoutContains("stop with Ctrl-C")), deadline: .seconds(60))
        #expect(output.status == 0, "\(output.stderr)")
        let ports = try #require(
            output.stdout.firstMatch(of: /gRPC TLS on port (\d+), gRPC h2c on port (\d+),/), "\(output.stdout)")
        #expect(Int(ports.1) != 0 && Int(ports.2) != 0 && ports.1 != ports.2)
        #expect(output.stdout.contains("grpc (TLS port \(ports.1): 127.0.0.2 and 127.0.0.3, ALPN h2; h2c port \(ports.2): 127.0.0.2;"))
        #expect(output.stdout.contains("grpc.health.v1.Health/Check: \"\" payments SERVING, inventory NOT_SERVING"))
        #expect(output.stdout.contains("lab.Echo/Fail (UNAVAILABLE \"edge is draining: 50% done\")"))
        #expect(output.stdout.contains("(gRPC's HTTP/1.1 case)"))
        #expect(output.stdout.hasSuffix("runner-lab: SIGTERM, shutting down\n"), "\(output.stdout)")
    }
}
