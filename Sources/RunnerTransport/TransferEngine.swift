import Dispatch
import Foundation
import RunnerVocabulary

/// Runs transfers on one libcurl multi handle, at most `maxInFlight` at once, on the calling
/// thread. Completions run on that thread too and may submit more transfers (redirect hops,
/// diagnosis probes); `run()` returns when nothing is queued, in flight or blocking.
public final class TransferEngine {
    private struct Queued {
        var spec: TransferSpec
        var completion: (consuming TransferOutcome) -> Void
    }

    /// A call running on its own thread (`submitBlocking`), as the engine's thread sees it.
    private struct BlockingCall {
        /// Uptime in nanoseconds after which the call fails as a timeout.
        var deadline: UInt64
        /// Runs the completion: with the work's value (nil), or with this failure.
        var finish: (TransferError?) -> Void
    }

    private let maxInFlight: Int
    private let multi: MultiHandle
    private let control: EngineControl
    private let pools = ConnectionPools()
    private let certificates = CertificateCache()
    private var queue = RingBuffer<Queued>()
    private var inFlight: [Transfer] = []
    private var idle: [Transfer] = []
    /// Every transfer slot ever made, by its easy handle's slot number.
    private var slots: [Transfer] = []
    private var blockingCalls: [Int: BlockingCall] = [:]
    private var nextBlockingCallID = 0
    /// Connections opened by every transfer so far (libcurl's `num_connects`, summed).
    public private(set) var connectionsOpened = 0

    public init(maxInFlight: Int) throws(CurlError) {
        guard maxInFlight >= 1 else {
            throw CurlError(
                call: "TransferEngine(maxInFlight:)", code: maxInFlight,
                message: "at least one transfer must be allowed in flight, got \(maxInFlight)")
        }
        self.maxInFlight = maxInFlight
        do {
            multi = try MultiHandle()
        } catch {
            throw error
        }
        control = EngineControl(waker: multi.waker)
        inFlight.reserveCapacity(maxInFlight)
        idle.reserveCapacity(maxInFlight)
    }

    deinit {
        // A blocking call still running must not wake a freed multi handle.
        control.engineGone()
        // Handles leave the multi before anything is cleaned up; shares close their idle
        // connections once the last transfer holding them is gone.
        for transfer in inFlight { try? multi.remove(transfer.easy) }
    }

    /// Queues a transfer; `completion` runs exactly once, with its outcome (moved to it).
    public func submit(_ spec: TransferSpec, completion: @escaping (consuming TransferOutcome) -> Void) {
        queue.append(Queued(spec: spec, completion: completion))
    }

    /// Runs `work` on a thread of its own, so that a call that may block (the system resolver)
    /// holds up no transfer. `completion` runs on the engine's thread, exactly once: with the
    /// work's value; with a `timeout` failure once `timeout` has passed (the work is left to
    /// end unseen, and its value is dropped); or with "aborted" on `cancelAll()`. `run()`
    /// waits for it as for a transfer.
    public func submitBlocking<Value: Sendable>(
        timeout: Duration, _ work: @escaping @Sendable () -> Value,
        completion: @escaping (Result<Value, TransferError>) -> Void
    ) {
        let id = nextBlockingCallID
        nextBlockingCallID += 1
        let answer = BlockingAnswer<Value>()
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(CurlRequest.milliseconds(timeout)) &* 1_000_000
        blockingCalls[id] = BlockingCall(deadline: deadline) { failure in
            // The work stores its value before it reports its end, so a value is there.
            let result = answer.take().map { Result<Value, TransferError>.success($0) }
            completion(failure.map { .failure($0) } ?? result ?? .failure(Self.noValue))
        }
        let control = self.control
        // A thread, not a shared queue: a call stuck in the kernel must not starve a pool.
        let thread = Thread {
            answer.put(work())
            control.blockingCallEnded(id)
        }
        thread.name = "runner blocking call"
        thread.start()
    }

    /// Drives every queued transfer and blocking call to completion.
    public func run() {
        control.enterRun()
        defer { control.leaveRun() }
        while true {
            if control.takeCancelRequest() { abortEverything() }
            finishBlockingCalls()
            startQueued()
            if inFlight.isEmpty {
                if queue.isEmpty && blockingCalls.isEmpty { return }
                if queue.isEmpty { waitForBlockingCalls() }
                continue
            }
            do {
                try multi.perform()
                finishDone()
                if inFlight.count < maxInFlight && !queue.isEmpty { continue }
                if inFlight.isEmpty { continue }
                // Returns on socket activity, at libcurl's next timeout, or when woken.
                try multi.poll(milliseconds: pollLimit())
            } catch {
                failInFlight(error)
            }
        }
    }

    /// Aborts every queued and in-flight transfer (their completions get an `io` failure
    /// "aborted"); safe to call from a completion. Used on SIGINT/SIGTERM.
    ///
    /// Also safe from another thread while `run()` runs (a signal handler's queue): `run()`
    /// is then woken up and aborts everything on its own thread.
    public func cancelAll() {
        guard control.requestCancel() == .now else { return }
        abortEverything()
    }

    // MARK: Starting

    private func startQueued() {
        while inFlight.count < maxInFlight, let next = queue.popFirst() {
            start(next)
        }
    }

    private func start(_ queued: Queued) {
        let transfer: Transfer
        let pool: ConnectionPool
        if let reusable = idle.popLast() {
            transfer = reusable
        } else {
            do {
                transfer = try makeTransfer()
            } catch {
                queued.completion(TransferOutcome(evidence: TransferEvidence(), result: .failure(error.transferFailure)))
                return
            }
        }
        do {
            pool = try pools.checkOut(queued.spec.poolKey)
        } catch {
            idle.append(transfer)
            queued.completion(TransferOutcome(evidence: TransferEvidence(), result: .failure(error.transferFailure)))
            return
        }
        do throws(TransferError) {
            try transfer.begin(queued.spec, pool: pool, completion: queued.completion)
            do {
                try multi.add(transfer.easy)
            } catch {
                throw error.transferFailure
            }
        } catch {
            pools.checkIn(pool)
            transfer.recycle()
            idle.append(transfer)
            queued.completion(TransferOutcome(evidence: TransferEvidence(), result: .failure(error)))
            return
        }
        transfer.inFlightIndex = inFlight.count
        inFlight.append(transfer)
    }

    private func makeTransfer() throws(CurlError) -> Transfer {
        let transfer = try Transfer(slot: slots.count, certificates: certificates)
        slots.append(transfer)
        return transfer
    }

    // MARK: Finishing

    private func finishDone() {
        while let (easy, code) = multi.nextFinished() {
            let transfer = slots[easy.slot]
            guard transfer.inFlightIndex >= 0 else { continue }
            finish(transfer, code: code)
        }
    }

    /// Copies the outcome out, returns the transfer to idle, then runs the completion (which
    /// may submit again, or cancel everything).
    private func finish(_ transfer: Transfer, code: Int, failure: TransferError? = nil) {
        let outcome = transfer.outcome(code: code, failure: failure)
        connectionsOpened += outcome.evidence.newConnections
        try? multi.remove(transfer.easy)
        let index = transfer.inFlightIndex
        let last = inFlight.removeLast()
        if last !== transfer {
            inFlight[index] = last
            last.inFlightIndex = index
        }
        transfer.inFlightIndex = -1
        let completion = transfer.completion
        if let pool = transfer.pool { pools.checkIn(pool) }
        transfer.recycle()
        idle.append(transfer)
        completion?(outcome)
    }

    private static let aborted = TransferError(kind: .io, message: "aborted", curlCode: CurlCode.abortedByCallback)
    private static let noValue = TransferError(kind: .io, message: "the blocking call gave no value", curlCode: CurlCode.abortedByCallback)

    private func abortEverything() {
        // Completions of aborted transfers may submit more: those are aborted too.
        repeat {
            while let queued = queue.popFirst() {
                queued.completion(TransferOutcome(evidence: TransferEvidence(), result: .failure(Self.aborted)))
            }
            while let transfer = inFlight.last {
                finish(transfer, code: CurlCode.abortedByCallback, failure: Self.aborted)
            }
            while let (id, call) = blockingCalls.first {
                blockingCalls[id] = nil
                call.finish(Self.aborted)
            }
        } while !queue.isEmpty || !inFlight.isEmpty || !blockingCalls.isEmpty
    }

    // MARK: Blocking calls

    /// Completes the blocking calls whose work ended, then those past their deadline.
    private func finishBlockingCalls() {
        guard !blockingCalls.isEmpty else { return }
        for id in control.takeEndedBlockingCalls() {
            // Absent when it timed out or was aborted first: its late value is dropped.
            guard let call = blockingCalls.removeValue(forKey: id) else { continue }
            call.finish(nil)
        }
        let now = DispatchTime.now().uptimeNanoseconds
        for (id, call) in blockingCalls where call.deadline <= now {
            blockingCalls[id] = nil
            call.finish(TransferError(kind: .timeout, message: "no answer in time", curlCode: CurlCode.operationTimedOut))
        }
    }

    /// Milliseconds until the nearest blocking call's deadline, at most one second.
    private func pollLimit() -> Int32 {
        guard let nearest = blockingCalls.values.lazy.map(\.deadline).min() else { return 1000 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard nearest > now else { return 0 }
        return Int32(min(1000, (nearest - now + 999_999) / 1_000_000))
    }

    /// Nothing to transfer: sleeps until a blocking call ends, its deadline, or a cancel request.
    private func waitForBlockingCalls() {
        // With no transfer added, curl_multi_poll only waits: for the timeout or a wake-up.
        try? multi.poll(milliseconds: pollLimit())
    }

    /// The multi handle itself failed: every transfer in flight fails with that error.
    private func failInFlight(_ error: CurlError) {
        let failure = error.transferFailure
        while let transfer = inFlight.last {
            finish(transfer, code: error.code, failure: failure)
        }
    }
}

/// The value of a blocking call, handed from its thread to the engine's.
private final class BlockingAnswer<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func put(_ value: Value) { lock.withLock { self.value = value } }
    func take() -> Value? { lock.withLock { value.take() } }
}
