import Foundation
import RunnerVocabulary
import Testing

@testable import RunnerTransport

#if canImport(Glibc)
import Glibc
#endif

/// The engine against plain-HTTP loopback sockets made by the test itself (no lab needed):
/// request bytes on the wire, final headers, body capture and hashing, reuse by pool key,
/// queueing, timeouts, cancellation. TLS behaviour is covered by EngineLabTests.
@Suite("TransferEngine on loopback", .serialized, .timeLimit(.minutes(3)))
struct EngineLoopbackTests {
    /// Runs `specs` on a fresh engine; outcomes in submission order.
    private func run(_ specs: [TransferSpec], maxInFlight: Int = 4) throws -> [TransferOutcome] {
        let engine = try TransferEngine(maxInFlight: maxInFlight)
        var outcomes = [TransferOutcome?](repeating: nil, count: specs.count)
        for (index, spec) in specs.enumerated() {
            engine.submit(spec) { outcomes[index] = $0 }
        }
        engine.run()
        return outcomes.compactMap { $0 }
    }

    private func sha256(_ bytes: [UInt8]) throws -> String {
        let digest = try SHA256Digest()
        _ = bytes.withUnsafeBytes { digest.update($0) }
        return try #require(digest.finish())
    }

    @Test("an engine needs room for one transfer at least")
    func zeroInFlight() {
        #expect {
            _ = try TransferEngine(maxInFlight: 0)
        } throws: { error in
            "\(error)" == "TransferEngine(maxInFlight:) failed (0): at least one transfer must be allowed in flight, got 0"
        }
    }

    @Test("header-only GET: headers as given, final response only, evidence copied out")
    func headerOnlyGET() throws {
        let server = try LoopbackServer { _ in
            let interim = Array("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n".utf8)
            guard case .raw(let final) = LoopbackServer.Reply.ok(Array("hello".utf8), headers: ["X-Multi: a", "X-Multi: b"]) else {
                return .silent
            }
            return .raw(interim + final)
        }
        defer { server.stop() }
        let outcomes = try run([TransferSpec(
            url: "http://127.0.0.1:\(server.port)/v1/echo?q=1",
            headers: [Header(name: "Host", value: "api.example.com"), Header(name: "X-Empty", value: ""), Header(name: "User-Agent", value: "runner/1")], poolKey: "k")])
        let outcome = try #require(outcomes.first)
        let response = try response(outcome)
        #expect(response.status == 200)
        #expect(response.headers.map(\.name) == ["Content-Length", "X-Multi", "X-Multi"])
        #expect(response.values(of: "x-multi") == ["a", "b"])
        #expect(response.body == Data("hello".utf8))
        #expect(response.bodySHA256 == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(outcome.evidence.connectedIP == "127.0.0.1")
        #expect(outcome.evidence.connectedPort == server.port)
        #expect(outcome.evidence.httpVersion == "1.1")
        #expect(outcome.evidence.newConnections == 1)
        #expect(outcome.evidence.certificate == nil)
        #expect(outcome.evidence.timings.tls == nil)
        #expect((outcome.evidence.timings.total ?? .zero) > .zero)

        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/echo?q=1")
        #expect(request.header("Host") == "api.example.com")
        #expect(request.header("X-Empty") == "")
        #expect(request.header("User-Agent") == "runner/1")
        #expect(request.header("Expect") == nil)
    }

    @Test("bytes bodies arrive byte-exact for POST, PUT and DELETE, without a form Content-Type")
    func bytesBodies() throws {
        let server = try LoopbackServer { _ in .ok([]) }
        defer { server.stop() }
        var payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        payload[0...3] = [0, 13, 10, 0]
        let methods = ["POST", "PUT", "DELETE"]
        let outcomes = try run(methods.map {
            TransferSpec(url: "http://127.0.0.1:\(server.port)/upload", method: $0, body: .bytes(Data(payload)), poolKey: "k")
        }, maxInFlight: 1)
        #expect(outcomes.count == 3)
        for outcome in outcomes { #expect(try response(outcome).status == 200) }
        let requests = server.requests
        #expect(requests.map(\.method) == methods)
        for request in requests {
            #expect(request.body == payload)
            #expect(request.header("Content-Length") == "200000")
            #expect(request.header("Content-Type") == nil)
            #expect(request.header("Expect") == nil)
        }
    }

    @Test("a file body is streamed whole, with its size, and the spec's Content-Type")
    func fileBody() throws {
        let server = try LoopbackServer { _ in .ok([]) }
        defer { server.stop() }
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: ($0 &* 7) ^ ($0 >> 8)) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("transport-body-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcomes = try run([TransferSpec(
            url: "http://127.0.0.1:\(server.port)/photo", method: "PATCH",
            headers: [Header(name: "Content-Type", value: "image/jpeg")], body: .file(path: path), poolKey: "k")])
        #expect(try response(outcomes.first).status == 200)
        let request = try #require(server.requests.first)
        #expect(request.method == "PATCH")
        #expect(request.header("Content-Type") == "image/jpeg")
        #expect(request.header("Content-Length") == "3000000")
        #expect(try sha256(request.body) == sha256(bytes))
    }

    @Test("a missing body file fails the transfer before anything is sent")
    func missingFile() throws {
        let server = try LoopbackServer { _ in .ok([]) }
        defer { server.stop() }
        let outcomes = try run([TransferSpec(
            url: "http://127.0.0.1:\(server.port)/", method: "POST", body: .file(path: "/nonexistent/body.bin"), poolKey: "k")])
        let failure = try failure(outcomes.first)
        #expect(failure.kind == .io)
        #expect(failure.message == "cannot open body file '/nonexistent/body.bin': No such file or directory")
        #expect(server.connectionsAccepted == 0)
    }

    @Test("the body beyond the capture limit is counted and hashed, not kept")
    func captureLimit() throws {
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let server = try LoopbackServer { _ in .ok(body) }
        defer { server.stop() }
        let outcomes = try run([TransferSpec(url: "http://127.0.0.1:\(server.port)/bytes", poolKey: "k", bodyCaptureLimit: 1000)])
        let response = try response(outcomes.first)
        #expect(response.body == Data(body[..<1000]))
        #expect(response.bodyLength == 100_000)
        #expect(response.bodyTruncated)
        #expect(try response.bodySHA256 == sha256(body))
    }

    @Test("HEAD waits for no body")
    func head() throws {
        let server = try LoopbackServer { _ in .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n".utf8)) }
        defer { server.stop() }
        let outcomes = try run([TransferSpec(url: "http://127.0.0.1:\(server.port)/", method: "HEAD", timeout: .seconds(3), poolKey: "k")])
        let response = try response(outcomes.first)
        #expect(response.bodyLength == 0)
        #expect(response.values(of: "Content-Length") == ["1234"])
        #expect(server.requests.first?.method == "HEAD")
    }

    @Test("connections are reused within a pool key and never across keys")
    func reuseByPoolKey() throws {
        let server = try LoopbackServer { _ in .ok(Array("ok".utf8)) }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/"
        let outcomes = try run(
            [TransferSpec(url: url, poolKey: "a"), TransferSpec(url: url, poolKey: "a"), TransferSpec(url: url, poolKey: "a"),
             TransferSpec(url: url, poolKey: "b"), TransferSpec(url: url, poolKey: "a")],
            maxInFlight: 1)
        #expect(outcomes.map(\.evidence.newConnections) == [1, 0, 0, 1, 0])
        #expect(server.requests.map(\.connection) == [1, 1, 1, 2, 1])
        #expect(outcomes[1].evidence.timings.connect == nil)
    }

    /// A handle keeps its header list for a transfer that sets the same lines: one with other
    /// lines must send its own, and one with the same lines again the same.
    @Test("a reused handle sends each transfer's own headers")
    func reusedHandleSendsItsOwnHeaders() throws {
        let server = try LoopbackServer { _ in .ok(Array("ok".utf8)) }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/"
        func spec(_ tenant: String) -> TransferSpec {
            TransferSpec(url: url, headers: [Header(name: "X-Tenant", value: tenant)], poolKey: "a")
        }
        let outcomes = try run([spec("one"), spec("one"), spec("two"), spec("one")], maxInFlight: 1)
        #expect(outcomes.map(\.evidence.newConnections) == [1, 0, 0, 0], "one handle, one connection")
        #expect(server.requests.map { $0.header("X-Tenant") } == ["one", "one", "two", "one"])
    }

    @Test("completions run on the engine's thread and may submit more")
    func submitFromCompletion() throws {
        let server = try LoopbackServer { request in .ok(Array(request.path.utf8)) }
        defer { server.stop() }
        let engine = try TransferEngine(maxInFlight: 2)
        var paths: [String] = []
        func hop(_ index: Int) {
            engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)/hop/\(index)", poolKey: "k")) { outcome in
                if case .success(let response) = outcome.result { paths.append(String(decoding: response.body, as: UTF8.self)) }
                if index < 3 { hop(index + 1) }
            }
        }
        hop(1)
        engine.run()
        #expect(paths == ["/hop/1", "/hop/2", "/hop/3"])
    }

    @Test("the whole-transfer timeout is honoured even when nothing happens on the socket")
    func timeout() throws {
        let silent = try SilentListener()
        let start = ContinuousClock.now
        let outcomes = try run([TransferSpec(url: "http://127.0.0.1:\(silent.port)/", timeout: .milliseconds(500), poolKey: "k")])
        let elapsed = ContinuousClock.now - start
        let failure = try failure(outcomes.first)
        #expect(failure.kind == .timeout)
        #expect(failure.curlCode == 28)
        #expect(failure.message.contains("timed out"))
        // Not before the timeout; the listener never answers, so anything short of the test's
        // own limit proves the timeout fired (room for a loaded machine).
        #expect(elapsed >= .milliseconds(490) && elapsed < .seconds(5))
    }

    @Test("at most maxInFlight transfers run at once; the rest wait in the queue")
    func maxInFlight() throws {
        let silent = try SilentListener()
        let specs = (0..<4).map { _ in TransferSpec(url: "http://127.0.0.1:\(silent.port)/", timeout: .seconds(1), poolKey: "k") }
        let serialStart = ContinuousClock.now
        let serial = try run(specs, maxInFlight: 1)
        let serialTime = ContinuousClock.now - serialStart
        let parallelStart = ContinuousClock.now
        let parallel = try run(specs, maxInFlight: 4)
        let parallelTime = ContinuousClock.now - parallelStart
        #expect(serial.count == 4 && parallel.count == 4)
        #expect((serial + parallel).allSatisfy { (try? failure($0).kind) == .timeout })
        // One at a time: at least 4 × 1 s; four at once: well under the 4 s a queue would take.
        #expect(serialTime >= .milliseconds(3_990))
        #expect(parallelTime < .milliseconds(3_500))
    }

    @Test("connection refused and a malformed URL are classified")
    func refusedAndMalformed() throws {
        // A port that was just free: bind, read it, close.
        let port = try { () throws -> Int in
            let silent = try SilentListener()
            return silent.port
        }()
        let outcomes = try run([
            TransferSpec(url: "http://127.0.0.1:\(port)/", poolKey: "k"),
            TransferSpec(url: "http://[::1/", poolKey: "k"),
        ])
        let refused = try failure(outcomes[0])
        #expect(refused.kind == .connect)
        #expect(refused.curlCode == 7)
        #expect(refused.message.contains("127.0.0.1"))
        let malformed = try failure(outcomes[1])
        #expect(malformed.kind == .http)
        #expect(malformed.curlCode == 3)
    }

    @Test("cancelAll from a completion aborts queued and in-flight transfers, and what they submit")
    func cancelFromCompletion() throws {
        let server = try LoopbackServer { request in request.path == "/fast" ? .ok([]) : .silent }
        defer { server.stop() }
        let engine = try TransferEngine(maxInFlight: 3)
        var log: [String] = []
        engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)/fast", poolKey: "fast")) { _ in
            log.append("fast")
            engine.cancelAll()
            log.append("cancelled")
        }
        for index in 0..<4 {
            engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)/slow/\(index)", timeout: .seconds(20), poolKey: "slow")) { outcome in
                if case .failure(let failure) = outcome.result { log.append("\(failure.kind) \(failure.curlCode ?? -1) \(failure.message)") }
                engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)/fast", poolKey: "fast")) { outcome in
                    if case .failure(let failure) = outcome.result { log.append("follow-up \(failure.message)") }
                }
            }
        }
        let start = ContinuousClock.now
        engine.run()
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(log.first == "fast")
        #expect(log.last == "cancelled")
        #expect(log.filter { $0 == "io 42 aborted" }.count == 4)
        #expect(log.filter { $0 == "follow-up aborted" }.count == 4)
    }

    @Test("cancelAll from another thread wakes run() and aborts everything")
    func cancelFromAnotherThread() throws {
        let silent = try SilentListener()
        let engine = try TransferEngine(maxInFlight: 2)
        var messages: [String] = []
        for _ in 0..<3 {
            engine.submit(TransferSpec(url: "http://127.0.0.1:\(silent.port)/", timeout: .seconds(30), poolKey: "k")) { outcome in
                if case .failure(let failure) = outcome.result { messages.append(failure.message) }
            }
        }
        #expect(engine.runCancelledFromAnotherThread(after: 0.2) < .seconds(3))
        #expect(messages == ["aborted", "aborted", "aborted"])
    }
}
