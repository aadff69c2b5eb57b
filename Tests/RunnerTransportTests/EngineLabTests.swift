import Foundation
import RunnerLab
import RunnerVocabulary
import Testing

@testable import RunnerTransport

/// The engine against the lab's real TLS vhosts: the three strategies' wire behaviour, trust
/// override isolation (pool keys and session resumption), certificate evidence, bodies,
/// timeouts, concurrency and reuse.
@Suite("TransferEngine against the lab", .serialized, .timeLimit(.minutes(3)))
struct EngineLabTests {
    // MARK: Helpers

    /// Runs `specs` on a fresh engine on its own thread (`run()` blocks it); outcomes in
    /// submission order.
    private func transfer(_ specs: [TransferSpec], maxInFlight: Int = 4) async throws -> [TransferOutcome] {
        try await onEngineThread(maxInFlight: maxInFlight) { engine in
            var outcomes = [TransferOutcome?](repeating: nil, count: specs.count)
            for (index, spec) in specs.enumerated() {
                engine.submit(spec) { outcomes[index] = $0 }
            }
            engine.run()
            return outcomes.compactMap { $0 }
        }
    }

    /// Gives `body` a fresh engine on a dedicated thread, for scenarios that chain transfers
    /// from completions.
    private func onEngineThread<T: Sendable>(
        maxInFlight: Int, _ body: @escaping @Sendable (TransferEngine) -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let engine = try TransferEngine(maxInFlight: maxInFlight)
                    continuation.resume(returning: body(engine))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private func withLab(_ body: (Lab) async throws -> Void) async throws {
        let lab = try await Lab.start()
        do {
            try await body(lab)
        } catch {
            try? await lab.shutdown()
            throw error
        }
        try await lab.shutdown()
    }

    /// The `/echo` report of a successful transfer.
    private func echo(_ outcome: TransferOutcome?) throws -> [String: Any] {
        let body = try response(outcome).body
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// A header the lab saw, case-insensitively.
    private func header(_ echo: [String: Any], _ name: String) -> String? {
        let headers = echo["headers"] as? [String: Any] ?? [:]
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value as? String
    }

    private func sha256(_ bytes: [UInt8]) throws -> String {
        let digest = try SHA256Digest()
        _ = bytes.withUnsafeBytes { digest.update($0) }
        return try #require(digest.finish())
    }

    private func binaryPayload(_ count: Int) -> [UInt8] {
        var bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 7)) }
        // NUL and CRLF early: bodies must be byte-exact, not C strings or lines.
        bytes.replaceSubrange(0..<6, with: [0, 13, 10, 0, 13, 10])
        return bytes
    }

    // MARK: Strategies on the wire

    @Test("header-only: the IP URL with the original Host, over plain http")
    func headerOnly() async throws {
        try await withLab { lab in
            let outcomes = try await transfer([TransferSpec(
                url: "http://\(LabAddress.primary):\(lab.httpPort)/echo",
                headers: [Header(name: "Host", value: "api.lab.test:\(lab.httpPort)"), Header(name: "User-Agent", value: "runner/1")], poolKey: "ho")])
            let outcome = try #require(outcomes.first)
            let report = try echo(outcome)
            #expect(report["method"] as? String == "GET")
            #expect(report["path"] as? String == "/echo")
            #expect(report["host"] as? String == "api.lab.test:\(lab.httpPort)")
            #expect(report["tls"] as? Bool == false)
            #expect(report["local_address"] as? String == LabAddress.primary)
            #expect(header(report, "User-Agent") == "runner/1")
            #expect(header(report, "Expect") == nil)
            #expect(outcome.evidence.connectedIP == LabAddress.primary)
            #expect(outcome.evidence.connectedPort == lab.httpPort)
            #expect(outcome.evidence.httpVersion == "1.1")
            #expect(outcome.evidence.certificate == nil)
            #expect(outcome.evidence.timings.tls == nil)
            #expect(outcome.evidence.newConnections == 1)
        }
    }

    @Test("trust override, right name: no SNI, chain and name verified, certificate in evidence")
    func trustOverrideGoodName() async throws {
        try await withLab { lab in
            let outcomes = try await transfer([TransferSpec(
                url: "https://\(LabAddress.primary):\(lab.httpsPort)/echo", headers: [Header(name: "Host", value: "api.lab.test")],
                tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"), poolKey: "to|api.lab.test|primary")])
            let outcome = try #require(outcomes.first)
            let report = try echo(outcome)
            #expect(report["sni"] is NSNull)
            #expect(report["tls"] as? Bool == true)
            #expect(report["host"] as? String == "api.lab.test")
            let certificate = try #require(outcome.evidence.certificate)
            #expect(certificate.subjectAltNames.contains("api.lab.test"))
            #expect(certificate.subject.contains("api.lab.test"))
            #expect(!certificate.issuer.isEmpty)
            #expect((certificate.notAfter ?? .distantPast) > Date())
            #expect(outcome.evidence.verification == nil)
            #expect(outcome.evidence.timings.tls != nil)
            #expect(outcome.evidence.connectedIP == LabAddress.primary)
        }
    }

    @Test("trust override, wrong name after a good connection to the same IP:port fails in the handshake")
    func trustOverrideWrongNameAfterGood() async throws {
        try await withLab { lab in
            let url = "https://\(LabAddress.primary):\(lab.httpsPort)/echo"
            let good = TransferSpec(url: url, tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"), poolKey: "to|api.lab.test")
            let wrong = TransferSpec(url: url, tls: .init(caFile: lab.caFile, verifyName: "other.lab.test"), poolKey: "to|other.lab.test")
            // One at a time, so the good connection is idle (reusable) when the wrong one starts.
            let outcomes = try await transfer([good, wrong, good], maxInFlight: 1)
            #expect(try response(outcomes[0]).status == 200)
            let failure = try failure(outcomes[1])
            #expect(failure.kind == .tls)
            #expect(failure.curlCode == 60)
            #expect(failure.message.contains("hostname mismatch"))
            #expect(failure.message.contains("other.lab.test"))
            #expect(outcomes[1].evidence.newConnections == 1)
            let verification = try #require(outcomes[1].evidence.verification)
            #expect(verification.isHostnameMismatch)
            #expect(verification.leaf?.subjectAltNames.contains("api.lab.test") == true)
            // The good key's connection is still there and still reused.
            #expect(outcomes[2].evidence.newConnections == 0)
            #expect(lab.connectionsAccepted(on: LabAddress.primary) == 2)
        }
    }

    @Test("trust override never resumes a TLS session, so a new handshake always checks the name")
    func trustOverrideNoResumption() async throws {
        try await withLab { lab in
            // The same pool key on purpose (as if two identities collided): the server closes
            // the first connection, so the second needs a handshake. A resumed session would
            // skip verification and let the wrong name through. (`Connection: close` is HTTP/1.1's.)
            let url = "https://\(LabAddress.primary):\(lab.httpsPort)/echo"
            let good = TransferSpec(
                url: url, headers: [Header(name: "Connection", value: "close")], tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"),
                httpVersion: .http1_1, poolKey: "collision")
            var wrong = good
            wrong.tls.verifyName = "other.lab.test"
            let outcomes = try await transfer([good, wrong], maxInFlight: 1)
            #expect(try response(outcomes[0]).status == 200)
            #expect(outcomes[1].evidence.newConnections == 1)
            #expect(try failure(outcomes[1]).kind == .tls)
            #expect(outcomes[1].evidence.verification?.isHostnameMismatch == true)
        }
    }

    @Test("SNI picks the certificate: without SNI the sni-only host presents its default one")
    func sniVersusNoSNI() async throws {
        try await withLab { lab in
            let port = lab.httpsPort
            let outcomes = try await transfer([
                // trust override: no SNI → default.lab.test → mismatch for sni.lab.test
                TransferSpec(
                    url: "https://\(LabAddress.sniOnly):\(port)/echo", headers: [Header(name: "Host", value: "sni.lab.test")],
                    tls: .init(caFile: lab.caFile, verifyName: "sni.lab.test"), poolKey: "to|sni"),
                // sni-resolve: SNI sni.lab.test, TCP to the same IP
                TransferSpec(
                    url: "https://sni.lab.test:\(port)/echo", connectTo: "sni.lab.test:\(port):\(LabAddress.sniOnly):\(port)",
                    tls: .init(caFile: lab.caFile), poolKey: "sni|sni"),
                // diagnosis probe: handshake only, no SNI, no verification
                TransferSpec(
                    url: "https://\(LabAddress.sniOnly):\(port)/", tls: .init(insecure: true), poolKey: "probe|nosni",
                    connectOnly: true),
            ])
            let mismatch = try failure(outcomes[0])
            #expect(mismatch.kind == .tls)
            #expect(mismatch.message.contains("default.lab.test"))
            let verification = try #require(outcomes[0].evidence.verification)
            #expect(verification.code == 62)
            #expect(verification.reason == "hostname mismatch")
            #expect(verification.leaf?.subjectAltNames.contains("default.lab.test") == true)
            #expect(outcomes[0].evidence.connectedIP == LabAddress.sniOnly)

            let report = try echo(outcomes[1])
            #expect(report["sni"] as? String == "sni.lab.test")
            #expect(report["local_address"] as? String == LabAddress.sniOnly)
            #expect(outcomes[1].evidence.certificate?.subjectAltNames.contains("sni.lab.test") == true)
            #expect(outcomes[1].evidence.connectedIP == LabAddress.sniOnly)

            let probe = try response(outcomes[2])
            #expect(probe.status == 0)
            #expect(outcomes[2].evidence.certificate?.subjectAltNames.contains("default.lab.test") == true)
            #expect(outcomes[2].evidence.connectedIP == LabAddress.sniOnly)
            #expect(outcomes[2].evidence.timings.tls != nil)
        }
    }

    @Test("sni-resolve with a name the certificate lacks: curl's own check fails, evidence says mismatch")
    func sniResolveMismatch() async throws {
        try await withLab { lab in
            let port = lab.httpsPort
            let outcomes = try await transfer([TransferSpec(
                url: "https://wrong.lab.test:\(port)/echo", connectTo: "wrong.lab.test:\(port):\(LabAddress.sniOnly):\(port)",
                tls: .init(caFile: lab.caFile), poolKey: "sni|wrong")])
            let failure = try failure(outcomes.first)
            #expect(failure.kind == .tls)
            #expect(failure.message.contains("wrong.lab.test"))
            #expect(outcomes.first?.evidence.verification?.isHostnameMismatch == true)
        }
    }

    @Test("an expired certificate fails with the verifier's reason and the leaf's dates", arguments: [false, true])
    func expired(trustOverride: Bool) async throws {
        try await withLab { lab in
            let port = lab.httpsPort
            let spec = trustOverride
                ? TransferSpec(
                    url: "https://\(LabAddress.expired):\(port)/echo",
                    tls: .init(caFile: lab.caFile, verifyName: "expired.lab.test"), poolKey: "to|expired")
                : TransferSpec(
                    url: "https://expired.lab.test:\(port)/echo",
                    connectTo: "expired.lab.test:\(port):\(LabAddress.expired):\(port)", tls: .init(caFile: lab.caFile),
                    poolKey: "sni|expired")
            let outcomes = try await transfer([spec])
            let failure = try failure(outcomes.first)
            #expect(failure.kind == .tls)
            #expect(failure.message.contains("certificate has expired"))
            let verification = try #require(outcomes.first?.evidence.verification)
            #expect(verification.isExpired)
            #expect(verification.reason == "certificate has expired")
            let leaf = try #require(verification.leaf)
            #expect(leaf.subjectAltNames.contains("expired.lab.test"))
            #expect((leaf.notAfter ?? .distantFuture) < Date())
        }
    }

    @Test("insecure reaches the expired host; nothing is verified, the certificate is still in evidence")
    func insecure() async throws {
        try await withLab { lab in
            let outcomes = try await transfer([TransferSpec(
                url: "https://\(LabAddress.expired):\(lab.httpsPort)/echo", tls: .init(caFile: lab.caFile, insecure: true),
                poolKey: "insecure")])
            #expect(try response(outcomes.first).status == 200)
            #expect(outcomes.first?.evidence.verification == nil)
            let certificate = try #require(outcomes.first?.evidence.certificate)
            #expect(certificate.subjectAltNames.contains("expired.lab.test"))
            #expect((certificate.notAfter ?? .distantFuture) < Date())
        }
    }

    // MARK: Bodies

    @Test("POST and PUT bytes arrive byte-exact (length and SHA-256 on the server side)", arguments: ["POST", "PUT"])
    func bytesBody(method: String) async throws {
        try await withLab { lab in
            let payload = binaryPayload(300_000)
            let outcomes = try await transfer([TransferSpec(
                url: "https://\(LabAddress.primary):\(lab.httpsPort)/echo", method: method,
                headers: [Header(name: "Host", value: "api.lab.test"), Header(name: "Content-Type", value: "application/octet-stream")], body: .bytes(Data(payload)),
                tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"), poolKey: "body")])
            let report = try echo(outcomes.first)
            #expect(report["method"] as? String == method)
            #expect(report["body_length"] as? Int == payload.count)
            #expect(try report["body_sha256"] as? String == sha256(payload))
            #expect(header(report, "Content-Type") == "application/octet-stream")
        }
    }

    @Test("a file body is streamed whole (large, binary), over plain http and TLS")
    func fileBody() async throws {
        try await withLab { lab in
            let payload = binaryPayload(5_000_000)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("lab-body-\(UUID().uuidString)").path
            try Data(payload).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let outcomes = try await transfer([
                TransferSpec(url: "http://\(LabAddress.primary):\(lab.httpPort)/echo", method: "POST", body: .file(path: path), poolKey: "f1"),
                TransferSpec(
                    url: "https://\(LabAddress.primary):\(lab.httpsPort)/echo", method: "PATCH", body: .file(path: path),
                    tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"), poolKey: "f2"),
            ])
            let expected = try sha256(payload)
            for outcome in outcomes {
                let report = try echo(outcome)
                #expect(report["body_length"] as? Int == payload.count)
                #expect(report["body_sha256"] as? String == expected)
            }
        }
    }

    @Test("an explicit Expect: 100-continue gets its interim response, which stays out of the headers")
    func expectContinue() async throws {
        try await withLab { lab in
            let outcomes = try await transfer([TransferSpec(
                url: "http://\(LabAddress.primary):\(lab.httpPort)/echo", method: "POST", headers: [Header(name: "Expect", value: "100-continue")],
                body: .bytes(Data(binaryPayload(2_000))), poolKey: "expect")])
            let response = try response(outcomes.first)
            #expect(response.status == 200)
            // Only the final response's headers: one Content-Type, the JSON one.
            #expect(response.values(of: "Content-Type").count == 1)
            #expect(response.values(of: "Content-Type").first?.contains("json") == true)
            let report = try echo(outcomes.first)
            #expect(report["body_length"] as? Int == 2_000)
        }
    }

    @Test("response bodies: kept up to the limit, counted and hashed whole")
    func responseBody() async throws {
        try await withLab { lab in
            let outcomes = try await transfer([
                TransferSpec(url: "http://\(LabAddress.primary):\(lab.httpPort)/bytes/100000", poolKey: "b", bodyCaptureLimit: 1_000),
                TransferSpec(url: "http://\(LabAddress.primary):\(lab.httpPort)/json", poolKey: "b"),
                TransferSpec(url: "http://\(LabAddress.primary):\(lab.httpPort)/status/404", poolKey: "b"),
            ])
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
            let large = try response(outcomes[0])
            #expect(large.body == Data(bytes[..<1_000]))
            #expect(large.bodyLength == 100_000)
            #expect(try large.bodySHA256 == sha256(bytes))
            let json = try JSONSerialization.jsonObject(with: response(outcomes[1]).body) as? [String: Any]
            #expect((json?["user"] as? [String: Any])?["id"] as? Int == 42)
            // An HTTP error status is a response, not a transfer failure.
            #expect(try response(outcomes[2]).status == 404)
        }
    }

    /// One handle carries every transfer (one in flight): a transfer after one that set a
    /// body, a method, HEAD's no-body or a connect-only probe inherits none of it, and one
    /// like the last (its lasting options kept, not reset) still sends its own URL and headers.
    @Test("a reused handle: what one transfer set does not leak into the next")
    func reusedHandleInheritsNothing() async throws {
        try await withLab { lab in
            let url = "https://api.lab.test:\(lab.httpsPort)/echo"
            let connectTo = "api.lab.test:\(lab.httpsPort):\(LabAddress.primary):\(lab.httpsPort)"
            let tls = ConnectionTLS(caFile: lab.caFile)
            func spec(_ method: String = "GET", _ path: String = "", body: RequestBody? = nil, header: String = "1", connectOnly: Bool = false) -> TransferSpec {
                TransferSpec(
                    url: url + path, method: method, headers: [Header(name: "X-Step", value: header)], body: body,
                    connectTo: connectTo, tls: tls, poolKey: "reuse", connectOnly: connectOnly)
            }
            let outcomes = try await transfer([
                spec("POST", body: .bytes(Data("posted".utf8))),
                spec(header: "2"),
                spec("HEAD"),
                spec(header: "4"),
                spec("DELETE"),
                spec(connectOnly: true),
                spec(header: "7"),
                spec("GET", "?again", header: "8"),
            ], maxInFlight: 1)
            #expect(outcomes.count == 8)
            let post = try echo(outcomes[0])
            #expect(post["method"] as? String == "POST" && post["body_length"] as? Int == 6)
            for (index, step) in [(1, "2"), (3, "4"), (6, "7")] {
                let report = try echo(outcomes[index])
                #expect(report["method"] as? String == "GET", "transfer \(index + 1): \(report)")
                #expect(report["body_length"] as? Int == 0, "transfer \(index + 1) sent no body")
                #expect(header(report, "X-Step") == step, "transfer \(index + 1) sent its own headers")
            }
            let head = try outcomes[2].result.get()
            #expect(head.status == 200 && head.bodyLength == 0, "HEAD: no body")
            #expect(try echo(outcomes[4])["method"] as? String == "DELETE")
            #expect(outcomes[5].evidence.connectedIP == LabAddress.primary, "the probe connected")
            let again = try echo(outcomes[7])
            #expect(again["path"] as? String == "/echo?again" && header(again, "X-Step") == "8")
        }
    }

    // MARK: Time, concurrency, reuse

    @Test("the timeout is honoured when the server never answers in time")
    func timeout() async throws {
        try await withLab { lab in
            let start = ContinuousClock.now
            let outcomes = try await transfer([TransferSpec(
                url: "http://\(LabAddress.primary):\(lab.httpPort)/delay/10000", timeout: .seconds(1), poolKey: "slow")])
            let elapsed = ContinuousClock.now - start
            let failure = try failure(outcomes.first)
            #expect(failure.kind == .timeout)
            #expect(failure.curlCode == 28)
            // Not before the timeout, and far from the 10 s answer, with room for a loaded machine.
            #expect(elapsed >= .milliseconds(990) && elapsed < .seconds(6))
        }
    }

    @Test("jobs 1 runs one transfer at a time, jobs 8 runs them together")
    func jobs() async throws {
        try await withLab { lab in
            let specs = (0..<8).map { _ in
                TransferSpec(url: "http://\(LabAddress.primary):\(lab.httpPort)/delay/1000", poolKey: "jobs")
            }
            let serialStart = ContinuousClock.now
            let serial = try await transfer(specs, maxInFlight: 1)
            let serialTime = ContinuousClock.now - serialStart
            let parallelStart = ContinuousClock.now
            let parallel = try await transfer(specs, maxInFlight: 8)
            let parallelTime = ContinuousClock.now - parallelStart
            #expect(try (serial + parallel).allSatisfy { try response($0).status == 200 })
            // Serially at least 8 × 1 s; together far less than that, loaded or not.
            #expect(serialTime >= .milliseconds(7_900))
            #expect(parallelTime < .seconds(5))
            // Serially, one connection carries everything.
            #expect(serial.map(\.evidence.newConnections).reduce(0, +) == 1)
        }
    }

    @Test("one pool key reuses its connection: num_connects 1 then 0, one connection on the server")
    func reuseWithinPoolKey() async throws {
        try await withLab { lab in
            let spec = TransferSpec(
                url: "https://\(LabAddress.replica):\(lab.httpsPort)/echo", headers: [Header(name: "Host", value: "api.lab.test")],
                tls: .init(caFile: lab.caFile, verifyName: "api.lab.test"), poolKey: "reuse")
            let outcomes = try await transfer(Array(repeating: spec, count: 5), maxInFlight: 1)
            #expect(outcomes.map(\.evidence.newConnections) == [1, 0, 0, 0, 0])
            let reports = try outcomes.map { try echo($0) }
            #expect(Set(reports.compactMap { $0["connection_id"] as? Int }).count == 1)
            #expect(reports.compactMap { $0["request_index"] as? Int } == [1, 2, 3, 4, 5])
            // Reused connections still carry the certificate (read from the live session) and no TLS phase.
            #expect(outcomes.allSatisfy { $0.evidence.certificate?.subjectAltNames.contains("api.lab.test") == true })
            #expect(outcomes[1...].allSatisfy { $0.evidence.timings.tls == nil })
            #expect(lab.connectionsAccepted(on: LabAddress.replica) == 1)
        }
    }

    @Test("completions may submit the next hop; each hop keeps its own evidence")
    func chainedHops() async throws {
        try await withLab { lab in
            let httpPort = lab.httpPort
            let hops: [String] = try await onEngineThread(maxInFlight: 2) { engine in
                var seen: [String] = []
                func hop(_ path: String, then rest: [String]) {
                    engine.submit(TransferSpec(url: "http://\(LabAddress.primary):\(httpPort)\(path)", poolKey: "hops")) { outcome in
                        seen.append("\(path) \(outcome.evidence.connectedIP ?? "-")")
                        if let next = rest.first { hop(next, then: Array(rest.dropFirst())) }
                    }
                }
                hop("/status/302", then: ["/echo", "/json"])
                engine.run()
                return seen
            }
            #expect(hops == ["/status/302 \(LabAddress.primary)", "/echo \(LabAddress.primary)", "/json \(LabAddress.primary)"])
        }
    }

    @Test("IPv6: connect-to a bracketed literal")
    func ipv6() async throws {
        try await withLab { lab in
            let port = lab.httpsPort
            let outcomes = try await transfer([TransferSpec(
                url: "https://api.lab.test:\(port)/echo", connectTo: "api.lab.test:\(port):[\(LabAddress.ipv6)]:\(port)",
                tls: .init(caFile: lab.caFile), poolKey: "v6")])
            let report = try echo(outcomes.first)
            #expect(report["local_address"] as? String == LabAddress.ipv6)
            #expect(report["sni"] as? String == "api.lab.test")
            #expect(outcomes.first?.evidence.connectedIP == LabAddress.ipv6)
        }
    }
}
