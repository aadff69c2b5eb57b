import Dispatch
import Foundation

/// Delivers SIGINT and SIGTERM as an async value, so the lab can shut down cleanly instead of dying.
final class TerminationSignals {
    private let stream: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let watched: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")]
        self.stream = stream
        self.sources = watched.map { signalInfo in
            // Ignore the default action (exit) so the dispatch source sees the signal instead.
            signal(signalInfo.number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalInfo.number, queue: .global())
            source.setEventHandler { continuation.yield(signalInfo.name) }
            source.resume()
            return source
        }
    }

    /// Waits for the first termination signal and returns its name.
    func next() async -> String {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? "end of signals"
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
