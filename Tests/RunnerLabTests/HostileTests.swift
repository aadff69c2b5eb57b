import Foundation
import PlanFixtures
import RunnerLab
import Testing

/// A hostile endpoint and what curl (7.88, `--max-time 4`) makes of it.
struct HostileCase: CustomTestStringConvertible, Sendable {
    let name: String
    /// Any of these is right (a reset surfaces as a receive error or as a short body, depending on timing).
    let exitCodes: Set<Int32>
    /// The exact body curl writes, when it is known.
    var body: String? = nil
    /// At least this many body bytes arrive before curl gives up.
    var minimumBytes = 0

    var testDescription: String { "/hostile/\(name)" }

    static let all: [HostileCase] = [
        .init(name: "silent", exitCodes: [28]),
        .init(name: "stall", exitCodes: [28], body: String(repeating: "a", count: 10)),
        .init(name: "drip", exitCodes: [28], minimumBytes: 1),
        .init(name: "reset", exitCodes: [56, 18]),
        .init(name: "huge-headers", exitCodes: [56]),
        .init(name: "endless", exitCodes: [28], minimumBytes: 64 << 10),
        .init(name: "http10", exitCodes: [0], body: "hello without a length"),
        // curl 7.88 does not call a "2OO" status line weird_server_reply (8): it stops with
        // CURLE_UNSUPPORTED_PROTOCOL (1), "Unsupported response code in HTTP response".
        .init(name: "bad-status", exitCodes: [1]),
    ]
}

/// How a test reaches the lab: plain HTTP, or HTTPS with ALPN settled on HTTP/1.1.
enum HostileTransport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case plain
    case tls

    var testDescription: String { self == .plain ? "HTTP" : "HTTPS HTTP/1.1" }

    func arguments(_ lab: Lab, path: String, address: String = LabAddress.primary) -> [String] {
        switch self {
        case .plain:
            return ["http://\(authority(address, lab.httpPort))\(path)"]
        case .tls:
            return [
                "--http1.1", "--cacert", lab.caFile, "--resolve", "api.lab.test:\(lab.httpsPort):\(address)",
                "https://api.lab.test:\(lab.httpsPort)\(path)",
            ]
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct HostileTests {
    @Test(arguments: HostileCase.all, HostileTransport.allCases)
    func curlGivesUpWithTheRightError(_ hostile: HostileCase, _ transport: HostileTransport) async throws {
        let lab = try await StatelessLab.get()
        let started = Date()
        let result = try await Command.curl(
            // Only the endpoints that never finish need the short clock; the others must answer
            // (or fail) on their own, which a loaded debug-build lab may take a moment to do.
            // 4 s, not 2: at load 7 on two cores, the drip's TLS handshake and first byte took
            // longer than 2 s and curl gave up with nothing.
            ["--max-time", hostile.exitCodes == [28] ? "4" : "15"]
                + transport.arguments(lab, path: "/hostile/\(hostile.name)"))
        #expect(Date().timeIntervalSince(started) < 20, "curl outlived its --max-time")
        #expect(hostile.exitCodes.contains(result.exitCode), "exit \(result.exitCode): \(result.errorOutput)")
        if let body = hostile.body { #expect(result.text == body) }
        #expect(result.output.count >= hostile.minimumBytes, "\(result.output.count) bytes")
    }

    /// What curl 7.88 says, so a change of exit code in another curl version is noticed and understood.
    @Test(arguments: [
        ("huge-headers", "curl: (56) Too large response headers"),
        ("bad-status", "curl: (1) Unsupported response code in HTTP response"),
    ])
    func curlExplainsWhy(_ name: String, _ message: String) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl(
            // These answer at once; the clock is only a deadline, generous for a loaded machine.
            ["--max-time", "15"] + HostileTransport.plain.arguments(lab, path: "/hostile/\(name)"))
        #expect(result.errorOutput.hasPrefix(message), "\(result.errorOutput)")
    }

    @Test func aPatientClientGetsTheWholeHugeHeaderBlock() async throws {
        // curl stops reading past its header limit; a raw socket (bash's /dev/tcp) reads the whole answer.
        let lab = try await StatelessLab.get()
        let result = try await Command.run(
            "bash",
            [
                "-c",
                "exec 3<>/dev/tcp/\(LabAddress.primary)/\(lab.httpPort); "
                    + "printf 'GET /hostile/huge-headers HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3; "
                    + "timeout 5 cat <&3",
            ])
        let text = result.text
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        #expect(head.utf8.count >= 1 << 20, "head of \(head.utf8.count) bytes")
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\nhuge headers done\n"))
    }

    @Test(arguments: HostileTransport.allCases)
    func resetSendsPartOfTheBodyThenAnRST(_ transport: HostileTransport) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl(
            ["--max-time", "5"] + transport.arguments(lab, path: "/hostile/reset"))
        #expect([56, 18].contains(result.exitCode), "exit \(result.exitCode): \(result.errorOutput)")
        #expect(result.output.count < 1 << 20)
        if result.exitCode == 56 {
            #expect(result.errorOutput.contains("reset by peer"), "\(result.errorOutput)")
        }
    }

    @Test func http2StreamsAnswerHostilePathsWith501() async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl([
            // The 501 comes at once; 15 s is only a deadline (2 s ran out in CI at load 8).
            "--http2", "--max-time", "15", "--write-out", "%{http_code} %{http_version}", "--output", "/dev/null",
            "--cacert", lab.caFile, "--resolve", "api.lab.test:\(lab.httpsPort):\(LabAddress.primary)",
            "https://api.lab.test:\(lab.httpsPort)/hostile/silent",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.text == "501 2")
    }

    @Test func unknownHostilePathsAre404() async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl([
            "--write-out", "%{http_code}", "--output", "/dev/null",
            "http://\(LabAddress.primary):\(lab.httpPort)/hostile/nope",
        ])
        #expect(result.text == "404")
    }

    @Test func theHandshakeCloserHangsUpOnTLSButServesHTTP() async throws {
        let lab = try await StatelessLab.get()
        let tls = try await Command.curl(
            ["--max-time", "15"] + HostileTransport.tls.arguments(lab, path: "/json", address: LabAddress.handshakeCloser))
        #expect(tls.exitCode == 35, "exit \(tls.exitCode): \(tls.errorOutput)")
        let plain = try await Command.curl(
            HostileTransport.plain.arguments(lab, path: "/json", address: LabAddress.handshakeCloser))
        #expect(plain.exitCode == 0, "\(plain.errorOutput)")
        #expect(plain.text.hasPrefix(#"{"user""#))
    }

    /// Every hostile request in flight at once, on both transports: the lab still answers others at once, and
    /// stopping it ends them all promptly.
    @Test func theLabStaysResponsiveAndStopsPromptly() async throws {
        let lab = try await Lab.start()
        let held = ["silent", "stall", "drip", "endless"]
        let clients = Task {
            try await withThrowingTaskGroup(of: (String, CommandResult).self) { group in
                for name in held {
                    for transport in HostileTransport.allCases {
                        group.addTask {
                            ("\(name) over \(transport)",
                             try await Command.curl(
                                ["--max-time", "30", "--output", "/dev/null"]
                                    + transport.arguments(lab, path: "/hostile/\(name)")))
                        }
                    }
                }
                var results: [(String, CommandResult)] = []
                for try await result in group { results.append(result) }
                return results
            }
        }
        // Every hostile request read by the lab (both transports), so all of them are being served.
        try #require(
            await eventually { held.allSatisfy { lab.requestsReceived(path: "/hostile/\($0)") >= 2 } },
            "the lab never received all the hostile requests")

        for transport in HostileTransport.allCases {
            let started = Date()
            let answer = try await Command.curl(["--max-time", "5"] + transport.arguments(lab, path: "/json"))
            #expect(answer.exitCode == 0, "\(answer.errorOutput)")
            // Held connections must not make others wait (they would wait for curl's 5 s here).
            #expect(Date().timeIntervalSince(started) < 4, "the lab was slow to answer over \(transport)")
        }

        let stopping = Date()
        try await lab.shutdown()
        // The clients' own limit is 30 s: well before it, the shutdown ended them.
        #expect(Date().timeIntervalSince(stopping) < 15, "shutdown took too long")
        let results = try await clients.value
        #expect(Date().timeIntervalSince(stopping) < 20, "clients outlived the lab")
        for (label, result) in results {
            #expect(result.exitCode != 0 && result.exitCode != 28, "\(label): exit \(result.exitCode)")
        }
    }
}
