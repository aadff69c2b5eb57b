import Dispatch
import Foundation
import Testing

@testable import RunnerTransport
import RunnerVocabulary

/// `submitBlocking`: work that may block (the system resolver) runs on its own thread while
/// transfers go on; it ends with its value, a timeout or an abort, exactly once, on the
/// engine's thread.
@Suite("TransferEngine blocking calls", .serialized, .timeLimit(.minutes(3)))
struct BlockingCallTests {
    /// What a blocking call's work waits on; gives up after `patience` so a broken engine
    /// fails the test instead of hanging it.
    private final class Gate: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        func wait(patience: Double = 5) -> String {
            semaphore.wait(timeout: .now() + patience) == .success ? "opened" : "gave up waiting"
        }
    }

    @Test("a blocking call holds up no transfer: the transfer's completion is what releases it")
    func transfersGoOn() throws {
        let server = try LoopbackServer { _ in .ok(Array("ok".utf8)) }
        defer { server.stop() }
        let engine = try TransferEngine(maxInFlight: 2)
        let gate = Gate()
        var log: [String] = []
        engine.submitBlocking(timeout: .seconds(10), { gate.wait() }) { result in
            log.append("blocking: \((try? result.get()) ?? "failed")")
        }
        engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)/", poolKey: "k")) { outcome in
            if case .success(let response) = outcome.result { log.append("transfer: \(response.status)") }
            gate.open()
        }
        let start = ContinuousClock.now
        engine.run()
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(log == ["transfer: 200", "blocking: opened"])
    }

    @Test("a blocking call past its timeout fails as a timeout; its late value is dropped")
    func timeout() throws {
        let gate = Gate()
        var results: [Result<String, TransferError>] = []
        let start = ContinuousClock.now
        do {
            let engine = try TransferEngine(maxInFlight: 1)
            engine.submitBlocking(timeout: .milliseconds(200), { gate.wait() }) { results.append($0) }
            engine.run()
        }
        let elapsed = ContinuousClock.now - start
        // The call itself never returns (the gate stays shut): anything short of that is the timeout.
        #expect(elapsed >= .milliseconds(190) && elapsed < .seconds(5))
        #expect(results.count == 1)
        guard case .failure(let failure)? = results.first else {
            Issue.record("expected a timeout, got \(results)")
            return
        }
        #expect(failure.kind == .timeout)
        #expect(failure.curlCode == 28)
        // The work ends after its engine is gone: its answer must go nowhere, and wake nothing.
        gate.open()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(results.count == 1)
    }

    @Test("cancelAll from another thread aborts a blocking call at once")
    func cancel() throws {
        let gate = Gate()
        defer { gate.open() }
        let engine = try TransferEngine(maxInFlight: 1)
        var results: [Result<String, TransferError>] = []
        engine.submitBlocking(timeout: .seconds(30), { gate.wait(patience: 10) }) { results.append($0) }
        #expect(engine.runCancelledFromAnotherThread(after: 0.2) < .seconds(3))
        #expect(results.count == 1)
        guard case .failure(let failure)? = results.first else {
            Issue.record("expected an abort, got \(results)")
            return
        }
        #expect(failure.message == "aborted")
    }

    @Test("run() waits for a lone blocking call, and for the transfer its completion submits")
    func completionSubmits() throws {
        let server = try LoopbackServer { request in .ok(Array(request.path.utf8)) }
        defer { server.stop() }
        let engine = try TransferEngine(maxInFlight: 1)
        var body: String?
        engine.submitBlocking(timeout: .seconds(5), { () -> String in
            Thread.sleep(forTimeInterval: 0.1)
            return "/after-blocking"
        }) { result in
            guard case .success(let path) = result else { return }
            engine.submit(TransferSpec(url: "http://127.0.0.1:\(server.port)\(path)", poolKey: "k")) { outcome in
                if case .success(let response) = outcome.result { body = String(decoding: response.body, as: UTF8.self) }
            }
        }
        engine.run()
        #expect(body == "/after-blocking")
    }
}
