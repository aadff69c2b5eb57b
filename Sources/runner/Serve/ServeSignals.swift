import Dispatch
import Foundation

/// `serve`'s signals: SIGHUP re-reads the plans; SIGINT and SIGTERM stop (a second SIGINT exits
/// at once).
enum ServeSignals {
    /// Keeps the dispatch sources alive for the process's lifetime.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Returns once every handler is registered (a signal before that would be lost).
    static func install(reload: @escaping @Sendable () -> Void, stop: @escaping @Sendable (Int32) -> Void) {
        let registered = DispatchGroup()
        let queue = DispatchQueue(label: "runner.serve.signals")
        let stopping = StopFlag()
        for number in [SIGHUP, SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                switch number {
                case SIGHUP:
                    reload()
                default:
                    if stopping.raised, number == SIGINT { _exit(128 + SIGINT) }
                    stopping.raised = true
                    stop(number)
                }
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        registered.wait()
    }
}

/// Whether a stop signal came already; touched only on the signals' serial queue.
private final class StopFlag: @unchecked Sendable {
    var raised = false
}
