import Foundation
import RunnerResults

/// Counts a run's results as they finish, for a progress display that reads them from another
/// thread: what is done (by outcome) and how many results the run expects in all.
public final class ProgressCounter: ResultSink, @unchecked Sendable {
    /// What a display shows at one moment.
    public struct Snapshot: Sendable, Equatable {
        public var counts = OutcomeCounts()
        /// Results the run expects in all so far (a scenario counts one until it resolves).
        public var expected = 0

        public init(counts: OutcomeCounts = OutcomeCounts(), expected: Int = 0) {
            self.counts = counts
            self.expected = expected
        }
    }

    private let lock = NSLock()
    private var current = Snapshot()

    public init() {}

    public var snapshot: Snapshot { lock.withLock { current } }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        let counts = result.outcome.counts
        lock.withLock { current.counts = current.counts + counts }
    }

    /// Not counted: the run has ended and the display with it.
    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {}

    public func expecting(_ results: Int) {
        lock.withLock { current.expected += results }
    }
}
