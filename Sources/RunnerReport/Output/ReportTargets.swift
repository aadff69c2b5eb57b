/// The report paths of one run, each judged and opened (`ReportTarget`) before anything runs.
public struct ReportTargets: Sendable {
    public var junit: ReportTarget?
    public var json: ReportTarget?
    public var html: ReportTarget?
    public var curl: ReportTarget?
    public var metrics: ReportTarget?

    /// Opens each path given; the first that cannot be written throws, naming it.
    public init(
        junit: String?, json: String?, html: String?, curl: String? = nil, metrics: String? = nil
    ) throws(ReportWriteError) {
        self.junit = try junit.map(Self.open)
        self.json = try json.map(Self.open)
        self.html = try html.map(Self.open)
        self.curl = try curl.map(Self.open)
        self.metrics = try metrics.map(Self.open)
    }

    /// Whether a report goes to standard output, which the console must then leave to it.
    public var takeStandardOutput: Bool {
        [junit, json, html, curl, metrics].contains { $0?.isStandardOutput == true }
    }

    private static func open(_ path: String) throws(ReportWriteError) -> ReportTarget {
        try ReportTarget(path: path)
    }
}
