import Foundation
import RunnerResults

/// Counts a run's results as they finish, for a progress display that reads them from another
/// thread: what is done (by outcome) and how many results the run will have in all.
///
/// Scenarios resolve only as they start, so the total is known for sure only near the end;
/// until then the scenarios still to resolve are counted at the average fan-out of those that
/// have (`ips: all` over two IPs: two each), and the snapshot says the total is an estimate.
public final class ProgressCounter: ResultSink, @unchecked Sendable {
    /// What a display shows at one moment.
    public struct Snapshot: Sendable, Equatable {
        public var counts = OutcomeCounts()
        /// Results the run will have in all, as far as it knows.
        public var expected = 0
        /// Whether `expected` counts scenarios not yet resolved at an average.
        public var estimated = false

        public init(counts: OutcomeCounts = OutcomeCounts(), expected: Int = 0, estimated: Bool = false) {
            self.counts = counts
            self.expected = expected
            self.estimated = estimated
        }
    }

    private let lock = NSLock()
    private var counts = OutcomeCounts()
    private var scenariosPending = 0
    private var scenariosResolved = 0
    private var resultsOfResolved = 0
    private var resultsOfSteps = 0

    public init() {}

    public var snapshot: Snapshot {
        lock.withLock {
            let known = resultsOfResolved + resultsOfSteps
            guard scenariosPending > 0 else { return Snapshot(counts: counts, expected: known) }
            let fanOut = scenariosResolved > 0 ? Double(resultsOfResolved) / Double(scenariosResolved) : 1
            return Snapshot(
                counts: counts, expected: known + Int((Double(scenariosPending) * fanOut).rounded()), estimated: true)
        }
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        let outcome = result.outcome.counts
        lock.withLock { counts = counts + outcome }
    }

    /// Not counted: the run has ended and the display with it.
    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {}

    public func planned(_ change: PlannedChange) {
        lock.withLock {
            switch change {
            case .scenarios(let count):
                scenariosPending += count
            case .expanded(let results):
                scenariosPending -= 1
                scenariosResolved += 1
                resultsOfResolved += results
            case .steps(let results):
                resultsOfSteps += results
            }
        }
    }
}
