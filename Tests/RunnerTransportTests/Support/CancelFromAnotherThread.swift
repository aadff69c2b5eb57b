import Foundation

@testable import RunnerTransport

extension TransferEngine {
    /// Runs the engine while another thread calls `cancelAll()` after `delay` seconds, as a
    /// signal handler's queue does; returns how long `run()` took.
    func runCancelledFromAnotherThread(after delay: Double) -> Duration {
        nonisolated(unsafe) let shared = self
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: delay)
            shared.cancelAll()
        }
        let start = ContinuousClock.now
        run()
        return ContinuousClock.now - start
    }
}
