import Dispatch
import Foundation
import RunnerEngine

/// SIGINT and SIGTERM: the first stops the run (reports are still written); a second SIGINT
/// exits at once, after `beforeExit` (which leaves the terminal clean).
enum InterruptSignals {
    /// Keeps the dispatch sources alive for the process's lifetime.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Returns once both handlers are registered: the default action is off from here on, so
    /// a signal arriving earlier than that would be lost.
    static func install(_ interrupter: RunInterrupter, beforeExit: @escaping @Sendable () -> Void = {}) {
        let registered = DispatchGroup()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if !interrupter.interrupt(signal: number), number == SIGINT {
                    beforeExit()
                    _exit(128 + SIGINT)
                }
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        registered.wait()
    }

    /// The contract's exit status for a run stopped by `signal` (130 for SIGINT, 143 for SIGTERM).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
