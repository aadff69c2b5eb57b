import Dispatch
import Foundation
import RunnerResults

/// Renders reports as results arrive: on a thread of its own where the machine has a core to
/// spare for it, so the engine's thread hands a result over and goes back to its transfers; on
/// the engine's thread otherwise.
///
/// A thread of its own pays only when a core is free for it. On two cores the engine takes
/// one and the other is shared with whatever else runs (on the bench, the lab answering the
/// requests): a third busy thread then preempts the engine and the servers it waits for, and
/// the bench's 40,000 results took 0.3 s longer (1.57 s against 1.24 s, medians of 8, both
/// reports) than rendering each result on the engine's thread, which overlaps with the
/// servers' work instead (1.24 s; 1.24 s without reports). Where the engine waits on the
/// network, as against remote servers, rendering on its thread costs nothing either.
///
/// On its own thread, at most `backlog` results wait to be rendered; past that the engine
/// waits, so memory stays bounded however far rendering falls behind. Results are handed over
/// in batches of `batchSize`: waking the worker thread costs a few microseconds on each side
/// (a futex, a context switch), as much as rendering a result, so a handover per result woke
/// it for nearly every one (measured: about a third of what reports cost at 40,000 results).
/// A batch waits in memory until it is full or the run ends.
///
/// Unchecked Sendable: the reports are touched only on `queue` (or the engine's thread, one
/// call at a time, when rendering there) until `finish`, which writes each on one thread; the
/// batch only under `lock`; the backlog is a counting semaphore (a permit per result waiting),
/// which cannot lose a wakeup.
public final class ReportWorker: ResultSink, @unchecked Sendable {
    /// Where results are rendered.
    public enum Threading: Sendable {
        /// On a thread of the worker's own.
        case own
        /// On the thread that hands them over (the engine's).
        case caller

        /// `own` on a machine with more than two cores, `caller` on one with two or one.
        public static var forThisMachine: Threading {
            ProcessInfo.processInfo.activeProcessorCount > 2 ? .own : .caller
        }
    }

    private enum Arrival {
        case finished
        case notRun
    }

    private typealias Item = (arrival: Arrival, result: ScenarioResult, position: ResultPosition)

    private let reports: [any StreamedReport]
    private let threading: Threading
    private let queue = DispatchQueue(label: "runner.reports")
    private let backlog: Int
    private let batchSize: Int
    private let lock = NSLock()
    /// Results handed over and not yet put on `queue`.
    private var batch: [Item] = []
    /// A permit per result that may wait to be rendered (`backlog` in all): taken as a result is
    /// handed over, given back once it is rendered.
    private let permits = DispatchSemaphore(value: 0)

    public init(
        _ reports: [any StreamedReport], threading: Threading = .forThisMachine, backlog: Int = 4096,
        batchSize: Int = 128
    ) {
        self.reports = reports
        self.threading = threading
        self.backlog = max(backlog, 1)
        self.batchSize = min(max(batchSize, 1), self.backlog)
        if threading == .own { batch.reserveCapacity(self.batchSize) }
        // Made with 0 and raised: libdispatch traps when a semaphore is freed below its initial
        // value, as it would be after a run that ended without `finish`.
        for _ in 0..<self.backlog { permits.signal() }
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        // On the caller's thread the result is rendered as it is: an `Item` made of it would
        // copy it (a retain and a release for each of its references).
        guard threading == .own else { return render(.finished, result, at: position) }
        hand((.finished, result, position))
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        guard threading == .own else { return render(.notRun, result, at: position) }
        hand((.notRun, result, position))
    }

    /// On the worker's own thread: the result waits in a batch.
    private func hand(_ item: Item) {
        permits.wait()
        lock.lock()
        batch.append(item)
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
            render(item)
            permits.signal()
        }
    }

    private func render(_ item: Item) {
        render(item.arrival, item.result, at: item.position)
    }

    private func render(_ arrival: Arrival, _ result: ScenarioResult, at position: ResultPosition) {
        for report in reports {
            switch arrival {
            case .finished: report.finished(result, at: position)
            case .notRun: report.notRun(result, at: position)
            }
        }
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
