import RunnerResults

/// A report file written as the run goes: it takes each result as it finishes (`ResultSink`),
/// and `finish` writes the whole document once the run has ended.
public protocol StreamedReport: ResultSink {
    /// Writes the document for `run` to the report's path, atomically.
    func finish(_ run: RunResult) throws(ReportWriteError)
}
