import RunnerResults

/// The reports a command asked for, made in one place for `run`, `merge` and `serve`'s cycles:
/// a report on each target opened, in the order JUnit, JSON, HTML, curl script, metrics.
public struct ReportSet {
    /// The reports, each a sink for the results as they finish.
    public let reports: [any StreamedReport]

    /// Makes a report on each of `targets` for `plans`, masked by `redactor`; `version` is the
    /// runner's, for the metrics' `runner_build_info`; `verbose` (`--verbose`): JUnit shows a
    /// passing result's TLS chain too. Throws the first that cannot be started.
    public init(
        _ targets: ReportTargets, plans: [PlanIdentity], redactor: Redactor, version: String, verbose: Bool = false
    ) throws(ReportWriteError) {
        var reports: [any StreamedReport] = []
        if let junit = targets.junit {
            reports.append(try JUnitReport(target: junit, plans: plans, redactor: redactor, verbose: verbose))
        }
        if let json = targets.json { reports.append(try JSONReport(target: json, plans: plans, redactor: redactor)) }
        if let html = targets.html { reports.append(try HTMLReport(target: html, plans: plans, redactor: redactor)) }
        if let curl = targets.curl { reports.append(try CurlReport(target: curl, plans: plans, redactor: redactor)) }
        if let metrics = targets.metrics {
            reports.append(try MetricsReport(target: metrics, plans: plans, redactor: redactor, version: version))
        }
        self.reports = reports
    }

    /// Whether no report was asked for.
    public var isEmpty: Bool { reports.isEmpty }
}
