import Dispatch
import Foundation
import RunnerResults

/// Renders reports on a thread of their own, so the engine's thread hands a result over and
/// goes back to its transfers: on a machine with a core to spare, reports add little to the
/// run's wall time. At most `backlog` results wait to be rendered; past that the engine waits,
/// so memory stays bounded however far rendering falls behind.
///
/// Results are handed over in batches of `batchSize`: waking the worker thread costs a few
/// microseconds on each side (a futex, a context switch), as much as rendering a result, and
/// the engine finishes a result every few tens of microseconds, so a handover per result woke
/// the worker for nearly every one (measured: about a third of what reports cost at 40,000
/// results). A batch waits in memory until it is full or the run ends.
///
/// Unchecked Sendable: the reports are touched only on `queue` once the worker exists (each by
/// one thread when they are written at the end); the batch and the count of results in flight
/// only under `lock`.
public final class ReportWorker: ResultSink, @unchecked Sendable {
    private enum Arrival {
        case finished
        case notRun
    }

    private typealias Item = (arrival: Arrival, result: ScenarioResult, position: ResultPosition)

    private let reports: [any StreamedReport]
    private let queue = DispatchQueue(label: "runner.reports")
    private let backlog: Int
    private let batchSize: Int
    private let lock = NSCondition()
    /// Results handed over and not yet put on `queue`.
    private var batch: [Item] = []
    /// Results handed over and not yet rendered (`batch` included).
    private var inFlight = 0
    /// Whether the engine waits for `inFlight` to come below `backlog`.
    private var engineWaits = false

    public init(_ reports: [any StreamedReport], backlog: Int = 4096, batchSize: Int = 128) {
        self.reports = reports
        self.backlog = max(backlog, 1)
        self.batchSize = min(max(batchSize, 1), self.backlog)
        batch.reserveCapacity(self.batchSize)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        hand((.finished, result, position))
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        hand((.notRun, result, position))
    }

    private func hand(_ item: Item) {
        lock.lock()
        while inFlight >= backlog {
            engineWaits = true
            lock.wait()
        }
        batch.append(item)
        inFlight += 1
        let full = batch.count >= batchSize ? takeBatch() : nil
        lock.unlock()
        if let full { queue.async { [self] in render(full) } }
    }

    /// The batch so far, `batch` left empty for the next. Under `lock`.
    private func takeBatch() -> [Item] {
        var taken: [Item] = []
        taken.reserveCapacity(batchSize)
        swap(&taken, &batch)
        return taken
    }

    /// On `queue`.
    private func render(_ items: [Item]) {
        for item in items {
            for report in reports {
                switch item.arrival {
                case .finished: report.finished(item.result, at: item.position)
                case .notRun: report.notRun(item.result, at: item.position)
                }
            }
        }
        lock.lock()
        inFlight -= items.count
        if engineWaits {
            engineWaits = false
            lock.broadcast()
        }
        lock.unlock()
    }

    /// Waits for every result handed over to be rendered, then writes each report; returns the
    /// errors of those that could not be written, in the reports' order.
    ///
    /// The reports are written at the same time, each on a thread: the run is over, so the
    /// engine's core is free, and each report's writing (copying its results from its spool,
    /// then waiting for the disk) touches nothing of the others'.
    public func finish(_ run: RunResult) -> [ReportWriteError] {
        lock.lock()
        let rest = takeBatch()
        lock.unlock()
        return queue.sync {
            render(rest)
            let outcomes = Outcomes(count: reports.count)
            DispatchQueue.concurrentPerform(iterations: reports.count) { index in
                do throws(ReportWriteError) {
                    try reports[index].finish(run)
                } catch {
                    outcomes.set(error, at: index)
                }
            }
            return outcomes.errors
        }
    }

    /// Each report's error, if it had one, set from the thread that wrote it.
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [ReportWriteError?]

        init(count: Int) {
            slots = Array(repeating: nil, count: count)
        }

        func set(_ error: ReportWriteError, at index: Int) {
            lock.withLock { slots[index] = error }
        }

        var errors: [ReportWriteError] { lock.withLock { slots.compactMap { $0 } } }
    }
}
