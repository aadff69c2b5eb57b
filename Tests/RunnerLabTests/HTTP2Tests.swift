import Foundation
import RunnerLab
import Testing

/// One HTTPS address reached by a client that offers h2, and the version it must end up with.
struct ALPNCase: CustomTestStringConvertible, Sendable {
    let address: String
    /// The name curl connects with (`--connect-to` onto `address`); the certificate is checked against it.
    let serverName: String
    let version: String

    var testDescription: String { "\(address) → HTTP/\(version)" }

    static let all: [ALPNCase] = [
        .init(address: LabAddress.primary, serverName: "api.lab.test", version: "2"),
        .init(address: LabAddress.sniOnly, serverName: "sni.lab.test", version: "2"),
        .init(address: LabAddress.ipv6, serverName: "api.lab.test", version: "2"),
        // The HTTP/1.1-only server: ALPN offers "http/1.1" alone even when the client offers h2.
        .init(address: LabAddress.replica, serverName: "api.lab.test", version: "1.1"),
    ]
}

@Suite(.timeLimit(.minutes(3))) struct HTTP2Tests {
    @Test(arguments: ALPNCase.all)
    func alpnPicksHTTP2EverywhereButTheReplica(_ alpn: ALPNCase) async throws {
        let lab = try await StatelessLab.get()
        let port = lab.httpsPort
        let result = try await Command.curl([
            "--http2", "--cacert", lab.caFile, "--write-out", "\n%{http_version}",
            "--connect-to", "\(alpn.serverName):\(port):\(authority(alpn.address, port))",
            "https://\(alpn.serverName):\(port)/echo",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let lines = result.text.split(separator: "\n")
        #expect(lines.last.map(String.init) == alpn.version, "curl's %{http_version}")
        let echo = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        #expect(echo?["http_version"] as? String == alpn.version)
        #expect(echo?["host"] as? String == "\(alpn.serverName):\(port)", "the :authority, seen as Host")
        #expect(echo?["sni"] as? String == alpn.serverName)
        #expect(echo?["request_index"] as? Int == 1)
    }

    @Test func aClientWithoutALPNGetsHTTP1() async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl([
            "--no-alpn", "--cacert", lab.caFile, "--write-out", "\n%{http_version}",
            "https://\(LabAddress.primary):\(lab.httpsPort)/echo",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.text.hasSuffix("\n1.1"), "\(result.text)")
        #expect(result.text.contains(#""http_version":"1.1""#))
    }

    @Test func thePlainPortStaysHTTP1EvenWhenAskedForH2() async throws {
        let lab = try await StatelessLab.get()
        // curl asks for an h2c upgrade; the lab ignores it and answers in HTTP/1.1.
        let result = try await Command.curl([
            "--http2", "--write-out", "\n%{http_version}", "http://\(LabAddress.primary):\(lab.httpPort)/echo",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.text.hasSuffix("\n1.1"), "\(result.text)")
        #expect(result.text.contains(#""http_version":"1.1""#))
    }

    @Test func requestsShareOneConnectionAsNumberedStreams() async throws {
        try await withLab { lab in
            let url = "https://\(LabAddress.primary):\(lab.httpsPort)/echo"
            let echoes = try await Command.curl([
                "--http2", "--cacert", lab.caFile, "--write-out", "\n", url, url + "?second",
            ]).jsonLines()
            #expect(echoes.count == 2)
            #expect(echoes.map { $0["http_version"] as? String } == ["2", "2"])
            #expect(echoes.map { $0["path"] as? String } == ["/echo", "/echo?second"])
            #expect(echoes.map { $0["request_index"] as? Int } == [1, 2])
            #expect(echoes[0]["connection_id"] as? Int != nil)
            #expect(echoes[0]["connection_id"] as? Int == echoes[1]["connection_id"] as? Int)
            #expect(lab.connectionsAccepted(on: LabAddress.primary) == 1)
        }
    }

    @Test func concurrentStreamsAreAnsweredIndependently() async throws {
        try await withLab { lab in
            let base = "https://\(LabAddress.primary):\(lab.httpsPort)"
            let urls = ["\(base)/delay/400", "\(base)/echo?a", "\(base)/echo?b"]
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lab-h2-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let files = urls.indices.map { directory.appendingPathComponent("\($0)") }
            // --parallel multiplexes the three on one connection; the write-out lines come in completion order.
            let result = try await Command.curl(
                ["--http2", "--parallel", "--cacert", lab.caFile, "--write-out", "%{url_effective}\n"]
                    + zip(urls, files).flatMap { ["--output", $1.path, $0] })
            #expect(result.exitCode == 0, "\(result.errorOutput)")
            let finished = result.text.split(separator: "\n").map(String.init)
            #expect(finished.last == urls[0], "the quick streams did not wait for the slow one: \(finished)")

            let answers = try files.map { file in
                try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
            }
            #expect(answers[0]["delayed_ms"] as? Int == 400)
            let echoes = answers.dropFirst()
            #expect(echoes.map { $0["path"] as? String } == ["/echo?a", "/echo?b"])
            #expect(Set(echoes.compactMap { $0["connection_id"] as? Int }).count == 1)
            #expect(Set(echoes.compactMap { $0["request_index"] as? Int }).isSubset(of: [1, 2, 3]))
            #expect(Set(echoes.compactMap { $0["request_index"] as? Int }).count == 2)
            #expect(lab.connectionsAccepted(on: LabAddress.primary) == 1)
        }
    }

    @Test func aLargeBodyArrivesIntactOverH2() async throws {
        let lab = try await StatelessLab.get()
        let body = try await bodyFile(bytes: 3_000_000)
        defer { try? FileManager.default.removeItem(at: body.url) }

        let started = Date()
        let result = try await Command.curl([
            "--http2", "--cacert", lab.caFile, "--data-binary", "@\(body.url.path)",
            "https://\(LabAddress.primary):\(lab.httpsPort)/echo",
        ])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let echo = try result.jsonObject()
        #expect(echo["http_version"] as? String == "2")
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body_length"] as? Int == 3_000_000)
        #expect(echo["body_sha256"] as? String == body.sha256)
    }

    @Test(arguments: EndpointCase.all)
    func endpointsAnswerAlikeOverH2(_ endpoint: EndpointCase) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl([
            "--http2", "--cacert", lab.caFile, "--dump-header", "/dev/stderr",
            "https://\(LabAddress.primary):\(lab.httpsPort)\(endpoint.path)",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let head = result.heads.last
        #expect(head?.statusLine.hasPrefix("HTTP/2 \(endpoint.status)") == true, "\(result.errorOutput)")
        if let body = endpoint.body { #expect(result.text == body) }
        if let header = endpoint.header {
            #expect(result.errorOutput.lowercased().contains(header + "\r\n"), "\(result.errorOutput)")
        }
    }

    @Test(arguments: HTTPFlavour.allCases)
    func headGetsTheHeadWithoutABody(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl([
            flavour.rawValue, "--head", "--cacert", lab.caFile, "--write-out", "%{size_download}",
            "https://\(LabAddress.primary):\(lab.httpsPort)/json",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let head = ResponseHead.all(in: result.text).first
        #expect(head?.statusLine.hasPrefix(flavour.statusPrefix + "200") == true, "\(result.text)")
        #expect(head?.value("content-length") == "49", "the length a GET would get")
        #expect(result.text.hasSuffix("\r\n\r\n0"), "no body bytes: \(result.text)")
    }
}
