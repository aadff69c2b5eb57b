import Foundation
import PlanFixtures
import RunnerLab
import Testing

@Suite(.timeLimit(.minutes(3))) struct LifecycleTests {
    @Test func writesTheCAIntoTheStateDirectoryAndListensEverywhere() async throws {
        let state = FileManager.default.temporaryDirectory
            .appendingPathComponent("lab-state-\(UUID().uuidString)/nested")
        defer { try? FileManager.default.removeItem(at: state.deletingLastPathComponent()) }
        try await withLab(stateDirectory: state.path) { lab in
            #expect(lab.caFile == state.appendingPathComponent("ca.pem").path)
            #expect(try String(contentsOfFile: lab.caFile, encoding: .utf8) == lab.caPEM)
            #expect(lab.caPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
            #expect(lab.httpPort != lab.httpsPort)
            for address in LabAddress.all {
                let result = try await Command.curl(["http://\(authority(address, lab.httpPort))/json"])
                #expect(result.exitCode == 0, "\(address): \(result.errorOutput)")
            }
        }
    }

    @Test func aTakenPortIsReportedWithAddressAndReason() async throws {
        try await withLab { first in
            let error = await #expect(throws: LabError.self) {
                try await withLab(httpPort: first.httpPort) { _ in }
            }
            #expect(
                error.map { "\($0)" }
                    == "lab: cannot listen for HTTP on 127.0.0.2:\(first.httpPort): "
                    + "address already in use (another lab or server holds this port)")
        }
    }

    @Test func shutdownClosesConnectionsAndReleasesThePorts() async throws {
        let lab = try await Lab.start()
        let (httpPort, httpsPort) = (lab.httpPort, lab.httpsPort)
        // A request still waiting when the lab stops must end, not hang the client.
        async let pending = Command.curl(["http://\(LabAddress.primary):\(httpPort)/delay/60000"])
        // So must a lookup that never gets an answer.
        async let hanging = Command.curl([LabDNS.urlTemplate(.dohJSON, port: httpPort, address: LabAddress.replica)
            .replacingOccurrences(of: "{host}", with: "hang.lab.test")])
        try #require(
            await eventually { lab.requestsReceived(path: "/delay/60000") == 1 && lab.httpdnsLookups(host: "hang.lab.test") == 1 },
            "the two requests never reached the lab")
        let stopped = Date()
        try await lab.shutdown()
        try await lab.shutdown()  // a second call is harmless
        #expect(try await pending.exitCode == 52, "curl should see the connection close with no reply")
        #expect(try await hanging.exitCode == 52, "curl should see the connection close with no reply")
        // Far from the 60 s answer and curl's 20 s limit: the shutdown ended them.
        #expect(Date().timeIntervalSince(stopped) < 15)

        let refused = try await Command.curl(["http://\(LabAddress.primary):\(httpPort)/json"])
        #expect(refused.exitCode == 7, "\(refused.errorOutput)")

        try await withLab(httpPort: httpPort, httpsPort: httpsPort) { again in
            #expect(again.httpPort == httpPort)
            #expect(again.httpsPort == httpsPort)
        }
    }

    @Test(arguments: [
        (LabError.cannotListen(service: "HTTPS", address: "::1", port: 18443, reason: "address not available"),
         "lab: cannot listen for HTTPS on [::1]:18443: address not available"),
        (LabError.noCommonFreePort(service: "HTTP", attempts: 20, lastReason: "address already in use"),
         "lab: no free HTTP port shared by all lab addresses after 20 attempts (last: address already in use)"),
        (LabError.stateDirectory(path: "/ro/.lab", reason: "permission denied"),
         "lab: cannot write state in /ro/.lab: permission denied"),
    ])
    func errorsReadWell(_ error: LabError, _ text: String) {
        #expect(error.description == text)
    }

    @Test func anUnwritableStateDirectoryIsReportedWithItsPath() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lab-file-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = await #expect(throws: LabError.self) {
            try await withLab(stateDirectory: file.appendingPathComponent("state").path) { _ in }
        }
        #expect(error.map { "\($0)" } == "lab: cannot write state in \(file.path)/state: Not a directory")
    }
}
