import Foundation
import RunnerLab
import Testing

/// A request to a fixed endpoint and what must come back.
struct EndpointCase: CustomTestStringConvertible, Sendable {
    let path: String
    let status: Int
    let body: String?
    let header: String?

    var testDescription: String { path }

    static let all: [EndpointCase] = [
        .init(path: "/status/418", status: 418, body: "418 I'm a teapot\n", header: nil),
        .init(path: "/status/204", status: 204, body: "", header: nil),
        .init(path: "/json", status: 200, body: #"{"user":{"id":42,"name":"probe"},"items":[1,2,3]}"#, header: nil),
        .init(
            path: "/bytes/5", status: 200, body: "\u{0}\u{1}\u{2}\u{3}\u{4}",
            header: "content-type: application/octet-stream"),
        .init(path: "/headers?Set-Cookie=sid%3D1&X-Lab=a+b", status: 200, body: nil, header: "x-lab: a b"),
        .init(
            path: LabMarkup.path, status: 200, body: LabMarkup.payload + "\n",
            header: "x-markup: " + LabMarkup.payload.lowercased()),
        .init(path: "/status/abc", status: 400, body: nil, header: nil),
        .init(path: "/missing", status: 404, body: "no lab endpoint at /missing\n", header: nil),
    ]
}

@Suite(.timeLimit(.minutes(3))) struct EndpointTests {
    @Test(arguments: EndpointCase.all)
    func answers(_ endpoint: EndpointCase) async throws {
        try await withLab { lab in
            let result = try await Command.curl([
                "--dump-header", "/dev/stderr", "http://\(LabAddress.primary):\(lab.httpPort)\(endpoint.path)",
            ])
            #expect(result.exitCode == 0, "\(result.errorOutput)")
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 \(endpoint.status) "), "\(result.errorOutput)")
            if let body = endpoint.body { #expect(result.text == body) }
            if let header = endpoint.header {
                #expect(result.errorOutput.lowercased().contains(header + "\r\n"), "\(result.errorOutput)")
            }
        }
    }

    @Test func echoReportsWhatArrivedIncludingALargeBody() async throws {
        try await withLab { lab in
            // 3 MB makes curl send `Expect: 100-continue`; it waits up to 30 s for the lab's interim 100.
            let bodyFile = FileManager.default.temporaryDirectory
                .appendingPathComponent("lab-body-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: bodyFile) }
            try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: bodyFile)
            let expectedDigest = try await Command.run("sha256sum", [bodyFile.path]).text.prefix(64)

            let started = Date()
            // HTTP/1.1 on purpose: the interim 100 exists only there (HTTP2Tests post the same body over h2).
            let result = try await Command.curl([
                "--http1.1", "--cacert", lab.caFile,
                "--connect-to", "api.lab.test:\(lab.httpsPort):\(LabAddress.primary):\(lab.httpsPort)",
                "--expect100-timeout", "30", "--data-binary", "@\(bodyFile.path)",
                "-H", "X-Multi: a", "-H", "X-Multi: b",
                "https://api.lab.test:\(lab.httpsPort)/echo?q=1",
            ])
            #expect(Date().timeIntervalSince(started) < 10, "the lab left curl waiting for 100 Continue")
            #expect(result.exitCode == 0, "\(result.errorOutput)")
            let echo = try result.jsonObject()
            #expect(echo["method"] as? String == "POST")
            #expect(echo["path"] as? String == "/echo?q=1")
            #expect(echo["host"] as? String == "api.lab.test:\(lab.httpsPort)")
            #expect(echo["sni"] as? String == "api.lab.test")
            #expect(echo["http_version"] as? String == "1.1")
            #expect(echo["local_port"] as? Int == lab.httpsPort)
            #expect(echo["remote_address"] as? String == "127.0.0.1")
            #expect((echo["headers"] as? [String: String])?["x-multi"] == "a, b")
            #expect(echo["body_length"] as? Int == 3_000_000)
            #expect(echo["body_sha256"] as? String == String(expectedDigest))

            let plainURL = "http://\(authority(LabAddress.ipv6, lab.httpPort))/echo"
            let plain = try await Command.curl([plainURL]).jsonObject()
            #expect(plain["tls"] as? Bool == false)
            #expect(plain["sni"] is NSNull)
            #expect(plain["local_address"] as? String == "::1")
            #expect(plain["body_length"] as? Int == 0)
        }
    }

    @Test func keepAliveIsObservableThroughConnectionIDsAndCounters() async throws {
        try await withLab { lab in
            let url = "https://api.lab.test:\(lab.httpsPort)/echo"
            let route = [
                "--cacert", lab.caFile,
                "--connect-to", "api.lab.test:\(lab.httpsPort):\(LabAddress.replica):\(lab.httpsPort)",
            ]
            let reused = try await Command.curl(route + ["--write-out", "\n", url, url]).jsonLines()
            #expect(reused.count == 2)
            #expect(reused.map { $0["request_index"] as? Int } == [1, 2])
            #expect(reused[0]["connection_id"] as? Int == reused[1]["connection_id"] as? Int)
            #expect(lab.connectionsAccepted(on: LabAddress.replica) == 1)

            let fresh = try await Command.curl(route + [url]).jsonObject()
            #expect(fresh["connection_id"] as? Int != reused[0]["connection_id"] as? Int)
            #expect(fresh["request_index"] as? Int == 1)
            #expect(lab.connectionsAccepted(on: LabAddress.replica) == 2)
            #expect(lab.connectionsAccepted(on: LabAddress.primary) == 0)
        }
    }

    @Test func delayAnswersLateWithoutHoldingUpOtherRequests() async throws {
        try await withLab { lab in
            let base = "http://\(LabAddress.primary):\(lab.httpPort)"
            let timed = ["--write-out", "%{time_total}", "--output", "/dev/null"]
            async let slow = Command.curl(timed + ["\(base)/delay/700"])
            // Several quick requests while the delayed one waits: no thread is blocked by it.
            var quick: [Double] = []
            for _ in 0..<4 {
                let result = try await Command.curl(timed + ["\(base)/json"])
                quick.append(Double(result.text) ?? .infinity)
            }
            let slowSeconds = Double(try await slow.text) ?? 0
            #expect(slowSeconds >= 0.7)
            #expect(slowSeconds < 5)
            #expect(quick.allSatisfy { $0 < 0.5 }, "\(quick)")
        }
    }
}
