import Foundation
import RunnerResults
import RunnerVocabulary

/// Prometheus text metrics of a one-shot run (`--metrics FILE`), for node_exporter's textfile
/// collector: the results' samples are collected as they finish; `finish` writes the
/// exposition of the run as one cycle, atomically (the collector must never read half a file).
public final class MetricsReport: StreamedReport {
    private let target: ReportTarget
    private let version: String
    private let collector: MetricsCollector

    /// A report to be written to `path` for a run of `plans` by runner `version`; fails at once
    /// when nothing can be written beside `path`.
    public convenience init(path: String, plans: [PlanIdentity], redactor: Redactor, version: String) throws(ReportWriteError) {
        try self.init(target: ReportTarget(path: path), plans: plans, redactor: redactor, version: version)
    }

    /// The same, for a path already judged and opened (`ReportTarget`).
    public init(target: ReportTarget, plans: [PlanIdentity], redactor: Redactor, version: String) throws(ReportWriteError) {
        if case .atomic(let finalPath) = target.delivery { try AtomicFile.checkWritable(beside: finalPath, reportedAs: target.path) }
        self.target = target
        self.version = version
        collector = MetricsCollector(plans: plans, redactor: redactor)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        collector.finished(result, at: position)
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        collector.notRun(result, at: position)
    }

    /// Writes the exposition of `run`, its one cycle: the plans loaded, so the last (only)
    /// load was successful; with a state file, whether it recorded the run's answers.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        let stateWrites = run.stateRecording.map { recording in
            var health = StateWriteHealth()
            health.count(recording, endedAt: run.startedAt.addingTimeInterval(run.duration.inSeconds))
            return health
        }
        let exposition = MetricsExposition(
            cycle: collector.samples(of: run), cyclesTotal: 1, configLastReloadSuccessful: true, version: version,
            stateWrites: stateWrites)
        try target.write { (output: inout FileOutput) throws(ReportWriteError) in
            exposition.write(into: &output)
        }
    }
}
