import RunnerResults

/// JUnit XML as the contract defines it (validates against Jenkins xUnit's junit-10.xsd),
/// written as the run goes: each result's `<testcase>` is rendered as it finishes and kept in a
/// spool beside the report; `finish` writes the document around them, in plan order.
public final class JUnitReport: StreamedReport {
    private let target: ReportTarget
    private let redactor: Redactor
    /// Per plan: its name redacted, and the `classname` its test cases carry.
    private let suiteNames: [(name: String, classname: String)]
    private let spool: ReportSpool
    /// `--verbose`: a passing result's TLS chain too (one line per certificate, with its pin);
    /// without it only a result that did not pass shows its chain.
    private let verbose: Bool
    /// A connection's certificate and TLS session, rendered once for the results that share them.
    private let repeatedParts = RepeatedParts()

    /// A report to be written to `path` for a run of `plans`; fails at once when nothing can
    /// be written beside `path`.
    public convenience init(
        path: String, plans: [PlanIdentity], redactor: Redactor, verbose: Bool = false
    ) throws(ReportWriteError) {
        try self.init(target: ReportTarget(path: path), plans: plans, redactor: redactor, verbose: verbose)
    }

    /// The same, for a path already judged and opened (`ReportTarget`).
    public init(
        target: ReportTarget, plans: [PlanIdentity], redactor: Redactor, verbose: Bool = false
    ) throws(ReportWriteError) {
        self.target = target
        self.redactor = redactor
        self.verbose = verbose
        suiteNames = plans.map { plan in
            let name = redactor.redact(plan.name)
            // Jenkins splits classname on its last dot into package and class: keep the plan whole.
            return (name, name.replacingOccurrences(of: ".", with: "_"))
        }
        spool = try ReportSpool(for: target)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    private func add(_ result: ScenarioResult, at position: ResultPosition) {
        let classname = suiteNames[position.suite].classname
        spool.append(at: position) { bytes in
            XMLWriter.appending(to: &bytes, fragmentDepth: 2) { xml in
                render(result, classname: classname, into: &xml)
            }
        }
    }

    /// Writes the whole document, `<testsuites>` with one `<testsuite>` per plan, atomically.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        try target.write { (output: inout FileOutput) throws(ReportWriteError) in
            var xml = XMLWriter()
            let counts = run.counts
            // Only these attributes: GitLab and the schema know no others on <testsuites>.
            xml.start("testsuites", [
                ("name", "runner"),
                ("tests", String(counts.total)),
                ("failures", String(counts.failed)),
                ("errors", String(counts.errors)),
                ("time", Format.seconds(run.duration)),
            ])
            for (index, suite) in run.suites.enumerated() {
                startSuite(suite, name: suiteNames[index].name, into: &xml)
                xml.drain(into: &output)
                _ = try spool.replay(suite: index, separator: [], into: &output)
                xml.end("testsuite")
            }
            xml.end("testsuites")
            xml.drain(into: &output)
        }
    }

    private func startSuite(_ suite: SuiteResult, name: String, into xml: inout XMLWriter) {
        let counts = suite.counts
        xml.start("testsuite", [
            ("name", name),
            ("tests", String(counts.total)),
            ("failures", String(counts.failed)),
            ("errors", String(counts.errors)),
            ("skipped", String(counts.skipped)),
            ("time", Format.seconds(suite.duration)),
            ("timestamp", Format.timestamp(suite.startedAt)),
            ("hostname", redactor.redact(suite.hostname)),
            ("file", redactor.redact(suite.plan.file)),
        ])
        if !suite.properties.isEmpty {
            xml.start("properties")
            for property in suite.properties {
                xml.leaf("property", [("name", redactor.redact(property.name)), ("value", redactor.redact(property.value))])
            }
            xml.end("properties")
        }
    }

    /// A result's `<testcase>`, written piece by piece into the spool's buffer: this runs once
    /// per result, so no array of attributes and no string per evidence line is made.
    private func render(_ result: ScenarioResult, classname: String, into xml: inout XMLWriter) {
        xml.openTag("testcase")
        // Without secrets, written piece by piece (the name is not made); with them the name is
        // redacted whole (a secret may span two of its pieces).
        if redactor.isEmpty {
            xml.attribute("name", pieces: { result.forEachDisplayNamePiece($0) })
        } else {
            xml.attribute("name", redactor.redact(result.displayName))
        }
        xml.attribute("classname", classname)
        xml.attribute("time") { Format.seconds(result.duration, to: &$0) }
        xml.closeTag()
        switch result.outcome {
        case .passed:
            break
        case .failed, .errored:
            Self.problemElement(result.outcome, names: ("failure", "error"), into: &xml, redactor: redactor)
        case .skipped(let reason):
            xml.leaf("skipped", [("message", redactor.redact(reason))])
        }
        // Earlier attempts (`retries`), as Maven Surefire writes them: flaky* when the result
        // passed in the end, rerun* when it never did; the message says which attempt.
        let earlierNames = result.isFlaky ? ("flakyFailure", "flakyError") : ("rerunFailure", "rerunError")
        for (number, attempt) in zip(1..., result.earlierAttempts) {
            Self.problemElement(attempt.outcome, names: earlierNames, prefix: "attempt \(number): ", into: &xml, redactor: redactor)
        }
        xml.openTag("system-out")
        xml.closeTag(name: "system-out") {
            EvidenceText.writeXMLText(
                result, redactor: redactor, showingChain: verbose || !result.outcome.isPassed, repeatedParts: repeatedParts, to: &$0)
        }
        xml.end("testcase")
    }

    /// A failed or errored outcome as `names.failure` / `names.error` with its type and message.
    private static func problemElement(
        _ outcome: Outcome, names: (failure: String, error: String), prefix: String = "",
        into xml: inout XMLWriter, redactor: Redactor
    ) {
        switch outcome {
        case .failed(let problems):
            // One problem per line, so a multi-line expected body cannot blur the list; the type is
            // the first problem's (scheduling misses come first: `SchedulingVerdict`).
            let lines = problems.map { PlainText.singleLine(redactor.redact($0.description)) }
            xml.leaf(
                names.failure,
                [("type", (problems.first?.kind ?? .expectation).rawValue), ("message", prefix + (lines.first ?? "expectations not met"))],
                text: lines.joined(separator: "\n"))
        case .errored(let error):
            let message = redactor.redact(error.message)
            var text = message
            if let diagnosis = error.diagnosis { text += "\ndiagnosis: " + redactor.redact(diagnosis) }
            xml.leaf(names.error, [("type", error.kind.rawValue), ("message", prefix + message)], text: text)
        case .passed, .skipped:
            break
        }
    }
}
