import RunnerResults
import RunnerVocabulary

extension HTMLReport {
    /// A result's `<details>`: folded, its summary line the verdict (badge, name, duration, phase
    /// bar); unfolded, why it failed and its evidence (hops, SNI, Host, connected IP,
    /// certificate, redirects). Runs once per result, as it finishes: written piece by piece
    /// into the spool's buffer, no `String` per fact.
    static func render(
        _ result: borrowing ScenarioResult, at position: ResultPosition, tags: [Int], into html: inout HTMLWriter
    ) {
        let status = HTMLStatus(result.outcome)
        html.raw("<details class=\"result ")
        html.raw(status.name)
        if result.isFlaky { html.raw(" flaky") }
        html.raw("\" id=\"")
        html.resultID(position)
        html.raw("\" data-status=\"")
        html.raw(status.name)
        html.raw("\" data-tags=\"")
        for (index, tag) in tags.enumerated() {
            if index > 0 { html.raw(" ") }
            html.number(tag)
        }
        html.raw("\">\n<summary><span class=\"badge\">")
        html.raw(status.label)
        html.raw("</span> <span class=\"name\">")
        html.value(result.scenario)
        html.raw("</span> <span class=\"where\">")
        html.value(result.strategy.rawValue)
        if let ip = result.ip {
            html.raw(" ")
            html.value(ip)
        }
        html.raw("</span>")
        // A flow step: the results it ran after, back to the flow's first.
        for step in result.after {
            html.raw(" <span class=\"after\">after ")
            html.value(step.description)
            html.raw("</span>")
        }
        if result.isFlaky { html.raw(" <span class=\"tag-flaky\">FLAKY</span>") }
        if result.evidence.insecure { html.raw(" <span class=\"tag-insecure\">INSECURE</span>") }
        // An address the service no longer returns, checked because apps still hold it.
        if result.evidence.retained != nil { html.raw(" <span class=\"tag-retained\">RETAINED</span>") }
        // An address a population's HTTPDNS SDK hands its apps (`sdk:`): their traffic is here.
        if let pick = result.evidence.pick, !pick.pickers.isEmpty {
            html.raw(" <span class=\"tag-pick\" title=\"picked by ")
            for (index, line) in pick.pickerLines.enumerated() {
                if index > 0 { html.raw("; ") }
                html.attributeValue(line)
            }
            html.raw("\">PICK</span>")
        }
        html.raw(" <span class=\"ms\">")
        html.milliseconds(result.duration)
        html.raw(" ms</span>")
        HTMLPhaseBar(result.evidence.hops).write(into: &html)
        html.raw("</summary>\n<div class=\"body\">\n")
        if result.evidence.insecure {
            html.raw("<p class=\"insecure\">")
            html.text(EvidenceText.insecureLine)
            html.raw("</p>\n")
        }
        outcome(result.outcome, into: &html)
        earlierAttempts(result.earlierAttempts, flaky: result.isFlaky, into: &html)
        evidence(result, into: &html)
        html.raw("</div>\n</details>\n")
    }

    /// Why it did not pass: each unmet expectation, the error and its diagnosis, or why it was
    /// skipped.
    private static func outcome(_ outcome: Outcome, into html: inout HTMLWriter) {
        switch outcome {
        case .passed:
            break
        case .failed(let problems):
            html.raw("<ul class=\"problems\">\n")
            for problem in problems {
                html.raw("<li><b>")
                html.value(problem.subject)
                html.raw("</b>: expected <code>")
                html.value(problem.expected)
                html.raw("</code>, got <code>")
                html.value(problem.actual)
                html.raw("</code></li>\n")
            }
            html.raw("</ul>\n")
        case .errored(let error):
            html.raw("<p class=\"error\"><b>")
            html.text(error.kind.rawValue)
            html.raw(" error</b>: ")
            html.value(error.message)
            html.raw("</p>\n")
            if let diagnosis = error.diagnosis {
                html.raw("<p class=\"diagnosis\">diagnosis: ")
                html.value(diagnosis)
                html.raw("</p>\n")
            }
        case .skipped(let reason):
            html.raw("<p class=\"skipped\">skipped: ")
            html.value(reason)
            html.raw("</p>\n")
        }
    }

    /// The attempts before the last (`retries`), oldest first.
    private static func earlierAttempts(_ attempts: [Attempt], flaky: Bool, into html: inout HTMLWriter) {
        guard !attempts.isEmpty else { return }
        html.raw("<div class=\"attempts\"><p>")
        html.raw(flaky ? "passed only on a retry; earlier attempts:" : "earlier attempts:")
        html.raw("</p><ol>\n")
        for attempt in attempts {
            html.raw("<li>")
            html.raw(HTMLStatus(attempt.outcome).label)
            html.raw(" in ")
            html.milliseconds(attempt.duration)
            html.raw(" ms")
            outcome(attempt.outcome, into: &html)
            html.raw("</li>\n")
        }
        html.raw("</ol></div>\n")
    }

    /// The evidence as the result describes it (`describeEvidence`): its facts, what the
    /// resolver answered, each hop, the notes.
    private static func evidence(_ result: borrowing ScenarioResult, into html: inout HTMLWriter) {
        var sink = HTMLEvidenceSink(writing: html, reproducing: !result.outcome.isPassed)
        result.describeEvidence(into: &sink)
        html = sink.finish()
    }
}
