import Dispatch
import RunnerResults

/// Renders reports on a thread of their own, so the engine's thread hands a result over and
/// goes back to its transfers: on a machine with a core to spare, reports add little to the
/// run's wall time. At most `backlog` results wait to be rendered; past that the engine waits,
/// so memory stays bounded however far rendering falls behind.
///
/// Unchecked Sendable: the reports are touched only on `queue` once the worker exists.
public final class ReportWorker: ResultSink, @unchecked Sendable {
    private let reports: [any StreamedReport]
    private let queue = DispatchQueue(label: "runner.reports")
    private let slots: DispatchSemaphore

    public init(_ reports: [any StreamedReport], backlog: Int = 4096) {
        self.reports = reports
        slots = DispatchSemaphore(value: backlog)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        slots.wait()
        queue.async { [self] in
            for report in reports { report.finished(result, at: position) }
            slots.signal()
        }
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        slots.wait()
        queue.async { [self] in
            for report in reports { report.notRun(result, at: position) }
            slots.signal()
        }
    }

    /// Waits for every result handed over to be rendered, then writes each report; returns the
    /// errors of those that could not be written.
    public func finish(_ run: RunResult) -> [ReportWriteError] {
        queue.sync {
            var errors: [ReportWriteError] = []
            for report in reports {
                do throws(ReportWriteError) {
                    try report.finish(run)
                } catch {
                    errors.append(error)
                }
            }
            return errors
        }
    }
}
