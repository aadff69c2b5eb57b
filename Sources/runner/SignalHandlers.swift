import Dispatch
import Foundation

/// The one place the runner takes over signals, for `run` and `serve`: SIGINT and SIGTERM ask
/// `stop` (the first stops the run or the cycles; reports are still written); a second SIGINT,
/// when `stop` says a stop was asked already, exits at once with 130 after `beforeExit` (which
/// leaves the terminal clean); SIGHUP calls `reload`, when given (else its default action stays).
///
/// DispatchSource-based rather than swift-service-lifecycle: see docs/architecture.md.
/// `runner-lab` keeps its own (`TerminationSignals`): another executable, async, sharing no
/// module with this one.
enum SignalHandlers {
    /// Keeps the dispatch sources alive for the process's lifetime.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Returns once every handler is registered: the default action is off from here on, so a
    /// signal arriving earlier than that would be lost. The handlers run on one serial queue.
    static func install(
        stop: @escaping @Sendable (Int32) -> Bool, reload: (@Sendable () -> Void)? = nil,
        beforeExit: @escaping @Sendable () -> Void = {}
    ) {
        let registered = DispatchGroup()
        let queue = DispatchQueue(label: "runner.signals")
        var handlers: [(Int32, @Sendable () -> Void)] = [SIGINT, SIGTERM].map { number in
            (number, {
                if !stop(number), number == SIGINT {
                    beforeExit()
                    _exit(exitStatus(for: SIGINT))
                }
            })
        }
        if let reload { handlers.append((SIGHUP, reload)) }
        for (number, handler) in handlers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
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
