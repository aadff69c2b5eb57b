import RunnerResults

/// JUnit XML as the contract defines it (validates against Jenkins xUnit's junit-10.xsd).
public enum JUnitReport {
    /// Renders the whole run as one `<testsuites>` document, every string passed through `redactor`.
    public static func render(_ run: RunResult, redactor: Redactor) -> String {
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
        for suite in run.suites { render(suite, into: &xml, redactor: redactor) }
        xml.end()
        return xml.finish()
    }

    private static func render(_ suite: SuiteResult, into xml: inout XMLWriter, redactor: Redactor) {
        let counts = suite.counts
        let name = redactor.redact(suite.name)
        xml.start("testsuite", [
            ("name", name),
            ("tests", String(counts.total)),
            ("failures", String(counts.failed)),
            ("errors", String(counts.errors)),
            ("skipped", String(counts.skipped)),
            ("time", Format.seconds(suite.duration)),
            ("timestamp", Format.timestamp(suite.startedAt)),
            ("hostname", redactor.redact(suite.hostname)),
            ("file", redactor.redact(suite.file)),
        ])
        if !suite.properties.isEmpty {
            xml.start("properties")
            for property in suite.properties {
                xml.leaf("property", [("name", redactor.redact(property.name)), ("value", redactor.redact(property.value))])
            }
            xml.end()
        }
        // Jenkins splits classname on its last dot into package and class: keep the plan whole.
        let classname = name.replacingOccurrences(of: ".", with: "_")
        for result in suite.results {
            render(result, classname: classname, into: &xml, redactor: redactor)
        }
        xml.end()
    }

    private static func render(
        _ result: ScenarioResult, classname: String, into xml: inout XMLWriter, redactor: Redactor
    ) {
        xml.start("testcase", [
            ("name", redactor.redact(result.displayName)),
            ("classname", classname),
            ("time", Format.seconds(result.duration)),
        ])
        switch result.outcome {
        case .passed:
            break
        case .failed, .errored:
            problemElement(result.outcome, names: ("failure", "error"), into: &xml, redactor: redactor)
        case .skipped(let reason):
            xml.leaf("skipped", [("message", redactor.redact(reason))])
        }
        // Earlier attempts (`retries`), as Maven Surefire writes them: flaky* when the result
        // passed in the end, rerun* when it never did; the message says which attempt.
        let earlierNames = result.isFlaky ? ("flakyFailure", "flakyError") : ("rerunFailure", "rerunError")
        for (number, attempt) in zip(1..., result.earlierAttempts) {
            problemElement(attempt.outcome, names: earlierNames, prefix: "attempt \(number): ", into: &xml, redactor: redactor)
        }
        let evidence = EvidenceText.lines(for: result.evidence, redactor: redactor)
        xml.leaf("system-out", text: evidence.joined(separator: "\n") + "\n")
        xml.end()
    }

    /// A failed or errored outcome as `names.failure` / `names.error` with its type and message.
    private static func problemElement(
        _ outcome: Outcome, names: (failure: String, error: String), prefix: String = "",
        into xml: inout XMLWriter, redactor: Redactor
    ) {
        switch outcome {
        case .failed(let problems):
            // One problem per line, so a multi-line expected body cannot blur the list.
            let lines = problems.map { PlainText.singleLine(redactor.redact($0.description)) }
            xml.leaf(
                names.failure, [("type", "expectation"), ("message", prefix + (lines.first ?? "expectations not met"))],
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
