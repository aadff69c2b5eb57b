/// Runs transfers on one libcurl multi handle, at most `maxInFlight` at once, on the calling
/// thread. Completions run on that thread too and may submit more transfers (redirect hops,
/// diagnosis probes); `run()` returns when nothing is queued or in flight.
public final class TransferEngine {
    private struct Queued {
        var spec: TransferSpec
        var completion: (TransferOutcome) -> Void
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
    /// Connections opened by every transfer so far (libcurl's `num_connects`, summed).
    public private(set) var connectionsOpened = 0

    public init(maxInFlight: Int) throws(TransportError) {
        guard maxInFlight >= 1 else {
            throw TransportError(
                call: "TransferEngine(maxInFlight:)", code: maxInFlight,
                message: "at least one transfer must be allowed in flight, got \(maxInFlight)")
        }
        self.maxInFlight = maxInFlight
        do {
            multi = try MultiHandle()
        } catch {
            throw error.transportError
        }
        control = EngineControl(waker: multi.waker)
        inFlight.reserveCapacity(maxInFlight)
        idle.reserveCapacity(maxInFlight)
    }

    deinit {
        // Handles leave the multi before anything is cleaned up; shares close their idle
        // connections once the last transfer holding them is gone.
        for transfer in inFlight { try? multi.remove(transfer.easy) }
    }

    /// Queues a transfer; `completion` runs exactly once, with its outcome.
    public func submit(_ spec: TransferSpec, completion: @escaping (TransferOutcome) -> Void) {
        queue.append(Queued(spec: spec, completion: completion))
    }

    /// Drives every queued transfer to completion.
    public func run() {
        control.enterRun()
        defer { control.leaveRun() }
        while true {
            if control.takeCancelRequest() { abortEverything() }
            startQueued()
            if inFlight.isEmpty {
                if queue.isEmpty { return }
                continue
            }
            do {
                try multi.perform()
                finishDone()
                if inFlight.count < maxInFlight && !queue.isEmpty { continue }
                if inFlight.isEmpty { continue }
                // Returns on socket activity, at libcurl's next timeout, or when woken.
                try multi.poll(milliseconds: 1000)
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
        do throws(TransferFailure) {
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
    private func finish(_ transfer: Transfer, code: Int, failure: TransferFailure? = nil) {
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

    private static let aborted = TransferFailure(kind: .io, curlCode: CurlCode.abortedByCallback, message: "aborted")

    private func abortEverything() {
        // Completions of aborted transfers may submit more: those are aborted too.
        repeat {
            while let queued = queue.popFirst() {
                queued.completion(TransferOutcome(evidence: TransferEvidence(), result: .failure(Self.aborted)))
            }
            while let transfer = inFlight.last {
                finish(transfer, code: CurlCode.abortedByCallback, failure: Self.aborted)
            }
        } while !queue.isEmpty || !inFlight.isEmpty
    }

    /// The multi handle itself failed: every transfer in flight fails with that error.
    private func failInFlight(_ error: CurlError) {
        let failure = error.transferFailure
        while let transfer = inFlight.last {
            finish(transfer, code: error.code, failure: failure)
        }
    }
}

/// A libcurl call that failed outside a transfer (setting up the engine), with the call named.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var code: Int
    public var message: String

    public init(call: String, code: Int, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    public var description: String { "\(call) failed (\(code)): \(message)" }
}
