import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of an engine another thread may touch: a cancel request (e.g. from a SIGINT
/// handler's queue) that wakes the polling thread, which then aborts on its own thread.
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

    /// True once per cancel request made from another thread.
    func takeCancelRequest() -> Bool {
        lock.withLock {
            defer { cancelRequested = false }
            return cancelRequested
        }
    }
}
