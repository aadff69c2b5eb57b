import RunnerReport

/// The report paths of one run, each judged and opened (`ReportTarget`) before anything runs.
struct ReportTargets {
    var junit: ReportTarget?
    var json: ReportTarget?
    var html: ReportTarget?
    var curl: ReportTarget?
    var metrics: ReportTarget?

    /// Opens each path given; the first that cannot be written throws, naming it.
    init(junit: String?, json: String?, html: String?, curl: String? = nil, metrics: String? = nil) throws(ReportWriteError) {
        self.junit = try junit.map(Self.open)
        self.json = try json.map(Self.open)
        self.html = try html.map(Self.open)
        self.curl = try curl.map(Self.open)
        self.metrics = try metrics.map(Self.open)
    }

    /// Whether a report goes to standard output, which the console must then leave to it.
    var takeStandardOutput: Bool {
        [junit, json, html, curl, metrics].contains { $0?.isStandardOutput == true }
    }

    private static func open(_ path: String) throws(ReportWriteError) -> ReportTarget {
        try ReportTarget(path: path)
    }
}
