import Foundation
import RunnerTransport

/// Stops a run from another thread (a signal handler's queue): no new transfers start, those in
/// flight are aborted, and every result not finished is reported as skipped ("interrupted").
public final class RunInterrupter: @unchecked Sendable {
    // Guarded by `lock`; the engine itself is only touched through its thread-safe `cancelAll()`.
    private let lock = NSLock()
    private var engine: TransferEngine?
    private var signalNumber: Int32?

    public init() {}

    /// Interrupts the run (once); returns false when it was already interrupted.
    @discardableResult
    public func interrupt(signal: Int32) -> Bool {
        let (first, engine): (Bool, TransferEngine?) = lock.withLock {
            guard signalNumber == nil else { return (false, nil) }
            signalNumber = signal
            return (true, self.engine)
        }
        if first { engine?.cancelAll() }
        return first
    }

    /// The signal that interrupted the run, if any.
    public var signal: Int32? { lock.withLock { signalNumber } }

    func attach(_ engine: TransferEngine) {
        let alreadyInterrupted: Bool = lock.withLock {
            self.engine = engine
            return signalNumber != nil
        }
        if alreadyInterrupted { engine.cancelAll() }
    }

    func detach() {
        lock.withLock { engine = nil }
    }
}
