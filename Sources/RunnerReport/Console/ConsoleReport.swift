import RunnerResults

/// The console's side of a run: a line per result as it finishes (through `write`), and what
/// the summary needs tallied on the way — counts, and the lines of the results that did not
/// pass — so no result is kept.
public final class ConsoleReport: ResultSink {
    private let formatter: ConsoleFormatter
    private let planNames: [String]
    private let write: (String) -> Void
    private var tally = ConsoleTally()

    /// - Parameter write: prints one result's line (or lines), without a trailing newline.
    public init(formatter: ConsoleFormatter, plans: [PlanIdentity], write: @escaping (String) -> Void) {
        self.formatter = formatter
        self.planNames = plans.map(\.name)
        self.write = write
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        if let line = formatter.line(for: result) { write(line) }
        count(result, at: position)
    }

    /// Counted, not printed: the run printed no line for it while it went on.
    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        count(result, at: position)
    }

    private func count(_ result: ScenarioResult, at position: ResultPosition) {
        let entry = formatter.notPassing(result, plan: planNames[position.suite], at: position)
        tally.count(result, at: position, notPassing: entry)
    }

    /// The end-of-run summary; its last line is exactly `run.counts.summaryLine`, uncoloured,
    /// so scripts can read it.
    public func summary(for run: RunResult) -> String {
        formatter.summary(for: run, tally: tally)
    }
}
