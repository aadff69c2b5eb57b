import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of an engine another thread may touch: a cancel request (e.g. from a SIGINT
/// handler's queue) and the end of a blocking call (`TransferEngine.submitBlocking`); either
/// wakes the polling thread, which then acts on its own thread.
final class EngineControl: @unchecked Sendable {
    enum CancelRoute {
        /// The caller is the engine's thread (or the engine is not running): abort right away.
        case now
        /// `run()` on another thread will abort at its next turn (it has been woken up).
        case deferred
    }

    private let lock = NSLock()
    private var runner: pthread_t?
    private var cancelRequested = false
    /// Blocking calls whose work has ended, by id, in the order they ended.
    private var finishedBlockingCalls: [Int] = []
    /// False once the engine is gone: its multi handle (the waker's target) is freed.
    private var engineAlive = true
    private let waker: MultiWaker

    init(waker: MultiWaker) { self.waker = waker }

    func enterRun() {
        lock.withLock { runner = pthread_self() }
    }

    func leaveRun() {
        lock.withLock { runner = nil }
    }

    func requestCancel() -> CancelRoute {
        let route: CancelRoute = lock.withLock {
            guard let runner, pthread_equal(runner, pthread_self()) == 0 else { return .now }
            cancelRequested = true
            return .deferred
        }
        if route == .deferred { waker.wakeUp() }
        return route
    }

    /// Called by a blocking call's thread when its work has ended; wakes the engine, unless it
    /// is gone (the answer is then simply dropped).
    func blockingCallEnded(_ id: Int) {
        lock.withLock {
            finishedBlockingCalls.append(id)
            // Woken under the lock, so that `engineGone()` cannot free the handle meanwhile.
            if engineAlive { waker.wakeUp() }
        }
    }

    /// The ids of the blocking calls that ended since the last call.
    func takeEndedBlockingCalls() -> [Int] {
        lock.withLock {
            defer { finishedBlockingCalls.removeAll() }
            return finishedBlockingCalls
        }
    }

    /// The engine is being freed: no more wake-ups from blocking calls still running.
    func engineGone() {
        lock.withLock { engineAlive = false }
    }

    /// True once per cancel request made from another thread.
    func takeCancelRequest() -> Bool {
        lock.withLock {
            defer { cancelRequested = false }
            return cancelRequested
        }
    }
}
