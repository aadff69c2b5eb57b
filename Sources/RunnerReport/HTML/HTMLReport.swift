import RunnerResults

/// One self-contained HTML page (`--html FILE`): the summary, per scenario the strategy × IP
/// matrix coloured by outcome, each result's evidence folded, a phase-timing bar per result,
/// filters by status and tag. Written as the run goes, like the JUnit and JSON reports: each
/// result's matrix cell and `<details>` are rendered as it finishes and kept in two spools
/// beside the report; `finish` writes the page around them, in plan order, a scenario at a
/// time, atomically. Every value from the run is redacted and escaped (`HTMLWriter`).
public final class HTMLReport: StreamedReport {
    private let target: ReportTarget
    private let redactor: Redactor
    private let plans: [PlanIdentity]
    /// Each result's `HTMLMatrixCell` record, read back a scenario at a time to lay out its matrix.
    private let cells: ReportSpool
    /// Each result's `<details>`, copied into the page under its scenario's matrix.
    private let details: ReportSpool
    /// Allows the page's own style and script (see `HTMLPage`).
    private let nonce = HTMLPage.makeNonce()
    private var flaky = 0
    /// Whether some population's SDK picks a result's address (`sdk:`): the legend then says what ★ is.
    private var picked = false
    /// Every tag seen, redacted, and its number: results carry numbers (`data-tags="0 3"`), so
    /// the filter needs no separator that a tag could contain. As many as the plans have tags.
    private var tagNumbers: [String: Int] = [:]

    /// A report to be written to `path` for a run of `plans`; fails at once when nothing can
    /// be written beside `path`.
    public convenience init(path: String, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        try self.init(target: ReportTarget(path: path), plans: plans, redactor: redactor)
    }

    /// The same, for a path already judged and opened (`ReportTarget`).
    public init(target: ReportTarget, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        self.target = target
        self.redactor = redactor
        self.plans = plans
        cells = try ReportSpool(for: target)
        details = try ReportSpool(for: target)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    private func add(_ result: ScenarioResult, at position: ResultPosition) {
        if result.isFlaky { flaky += 1 }
        if let pick = result.evidence.pick, !pick.pickers.isEmpty { picked = true }
        let tags = result.tags.map(number(ofTag:))
        let cell = HTMLMatrixCell(result, at: position, redactor: redactor)
        cells.append(at: position) { cell.encode(into: &$0) }
        details.append(at: position) { bytes in
            HTMLWriter.appending(to: &bytes, redactor: redactor) { html in
                Self.render(result, at: position, tags: tags, into: &html)
            }
        }
    }

    private func number(ofTag tag: String) -> Int {
        let shown = PlainText.singleLine(redactor.redact(tag))
        if let number = tagNumbers[shown] { return number }
        let number = tagNumbers.count
        tagNumbers[shown] = number
        return number
    }

    /// Writes the whole page atomically.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        try target.write { (output: inout FileOutput) throws(ReportWriteError) in
            var html = HTMLWriter(redactor: redactor, capacity: 64 * 1024)
            writeHead(run, into: &html)
            for (index, suite) in run.suites.enumerated() {
                writePlanHeader(suite, into: &html)
                html.drain(into: &output)
                try writeScenarios(ofSuite: index, with: &html, into: &output)
                html.raw("</section>\n")
            }
            html.raw("</main>\n<script nonce=\"")
            html.text(nonce)
            html.raw("\">\n")
            html.raw(HTMLPage.script)
            html.raw("\n</script>\n</body>\n</html>\n")
            html.drain(into: &output)
        }
    }

    /// The scenarios of plan `suite`, each a section: its name, its matrix, its results. The
    /// cells are read a scenario at a time, its results copied from the other spool after them:
    /// what is in memory is one scenario's cells, whatever the size of the run.
    private func writeScenarios(
        ofSuite suite: Int, with html: inout HTMLWriter, into output: inout FileOutput
    ) throws(ReportWriteError) {
        cells.seek(toSuite: suite)
        details.seek(toSuite: suite)
        var scenario: [HTMLMatrixCell] = []
        var unreadable: ReportWriteError?
        _ = try cells.read(while: { $0.suite == suite }) { (position, record) throws(ReportWriteError) in
            if let first = scenario.first, first.position.scenario != position.scenario {
                try writeScenario(scenario, with: &html, into: &output)
                scenario.removeAll(keepingCapacity: true)
            }
            guard let cell = HTMLMatrixCell(decoding: record, at: position) else {
                unreadable = ReportWriteError(path: target.path, reason: "a result read back from its spool is damaged")
                return
            }
            scenario.append(cell)
        }
        if let unreadable { throw unreadable }
        if !scenario.isEmpty { try writeScenario(scenario, with: &html, into: &output) }
    }

    private func writeScenario(
        _ cells: [HTMLMatrixCell], with html: inout HTMLWriter, into output: inout FileOutput
    ) throws(ReportWriteError) {
        guard let first = cells.first else { return }
        html.raw("<section class=\"scenario\">\n<h3>")
        html.text(first.scenario)
        html.raw("</h3>\n")
        Self.writeMatrix(cells, into: &html)
        Self.writeClientMatrix(cells, into: &html)
        html.raw("<div class=\"results\">\n")
        html.drain(into: &output)
        let scenario = first.position.scenario
        _ = try details.read(while: { $0.scenario == scenario && $0.suite == first.position.suite }) { _, fragment in
            output.write(fragment)
        }
        html.raw("</div>\n</section>\n")
    }

    /// `<!DOCTYPE html>` to the filters: the policy, the stylesheet, the run's summary.
    private func writeHead(_ run: RunResult, into html: inout HTMLWriter) {
        let counts = run.counts
        html.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        html.text(HTMLPage.contentSecurityPolicy(nonce: nonce))
        html.raw("\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>runner: ")
        for (index, plan) in plans.enumerated() {
            if index > 0 { html.raw(", ") }
            html.value(plan.name)
        }
        html.raw(" — ")
        html.text(counts.summaryLine)
        html.raw("</title>\n<style nonce=\"")
        html.text(nonce)
        html.raw("\">\n")
        html.raw(HTMLPage.stylesheet)
        html.raw("\n</style>\n</head>\n<body>\n<header>\n<h1>runner report</h1>\n<p class=\"run\">started ")
        html.text(Format.timestamp(run.startedAt))
        html.raw(" · ")
        html.text(Format.seconds(run.duration))
        html.raw(" s · ")
        html.text(Format.count(run.connectionsOpened, "connection", "connections"))
        html.raw(" opened")
        if let signal = run.interruptedBy {
            html.raw(" · <strong>interrupted by ")
            html.text(Format.signalName(signal))
            html.raw("</strong>")
        }
        html.raw("</p>\n<ul class=\"summary\">\n")
        for (name, label, count) in [
            ("passed", "passed", counts.passed), ("failed", "failed", counts.failed), ("error", "errors", counts.errors),
            ("skipped", "skipped", counts.skipped), ("flaky", "flaky", flaky), ("total", "results", counts.total),
        ] as [(StaticString, StaticString, Int)] {
            html.raw("<li class=\"")
            html.raw(name)
            html.raw("\"><b id=\"count-")
            html.raw(name)
            html.raw("\">")
            html.number(count)
            html.raw("</b>")
            html.raw(label)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
        writeFilters(total: counts.total, into: &html)
        html.raw("</header>\n<main>\n")
    }

    private func writeFilters(total: Int, into html: inout HTMLWriter) {
        html.raw("<form id=\"filters\">\n<fieldset><legend>status</legend>")
        for status in HTMLStatus.allCases {
            html.raw("<label><input type=\"checkbox\" name=\"status\" value=\"")
            html.raw(status.name)
            html.raw("\" checked> ")
            html.raw(status.name)
            html.raw("</label> ")
        }
        html.raw("</fieldset>\n<label>tag <select name=\"tag\"><option value=\"\">any</option>")
        for (tag, number) in tagNumbers.sorted(by: { $0.key < $1.key }) {
            html.raw("<option value=\"")
            html.number(number)
            html.raw("\">")
            html.text(tag)
            html.raw("</option>")
        }
        html.raw("</select></label>\n<output id=\"shown\">")
        html.number(total)
        html.raw(" of ")
        html.number(total)
        html.raw(" results shown</output>\n</form>\n<p class=\"legend\">phases: ")
        for (index, name) in ["resolve", "connect", "tls", "first byte", "transfer"].enumerated() {
            html.raw("<span class=\"p")
            html.number(index)
            html.raw("\">")
            html.text(name)
            html.raw("</span> ")
        }
        if picked {
            html.raw("· <b class=\"pick-mark\">&#9733;</b> the address an app's HTTPDNS SDK picks (<code>sdk:</code>), <b class=\"tag-pick\">PICK</b> its results")
        }
        html.raw("</p>\n")
    }

    /// A plan's heading: its name, file, host, start and counts; its properties folded.
    private func writePlanHeader(_ suite: SuiteResult, into html: inout HTMLWriter) {
        html.raw("<section class=\"plan\">\n<h2>")
        html.value(suite.plan.name)
        html.raw(" <small>")
        html.value(suite.plan.file)
        html.raw(" · ")
        html.value(suite.hostname)
        html.raw(" · ")
        html.text(Format.timestamp(suite.startedAt))
        html.raw(" · ")
        html.text(Format.seconds(suite.duration))
        html.raw(" s · ")
        html.text(suite.counts.summaryLine)
        html.raw("</small></h2>\n")
        guard !suite.properties.isEmpty else { return }
        html.raw("<details class=\"properties\"><summary>properties</summary><dl>")
        for property in suite.properties {
            html.raw("<dt>")
            html.value(property.name)
            html.raw("</dt><dd>")
            html.value(property.value)
            html.raw("</dd>")
        }
        html.raw("</dl></details>\n")
    }
}
