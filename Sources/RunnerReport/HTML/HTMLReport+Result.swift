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

    /// The evidence, as the JSON report has it: where the IP came from, each hop, the notes.
    private static func evidence(_ result: borrowing ScenarioResult, into html: inout HTMLWriter) {
        let evidence = result.evidence
        html.raw("<dl class=\"facts\"><dt>strategy</dt><dd>")
        html.value(evidence.strategy.rawValue)
        html.raw("</dd><dt>ip source</dt><dd>")
        html.value(evidence.ipSource)
        html.raw("</dd>")
        if !result.tags.isEmpty {
            html.raw("<dt>tags</dt><dd>")
            for (index, tag) in result.tags.enumerated() {
                if index > 0 { html.raw(", ") }
                html.value(tag)
            }
            html.raw("</dd>")
        }
        html.raw("</dl>\n")
        for lookup in evidence.dns { dns(lookup, into: &html) }
        if let notChecked = evidence.dnsNotChecked {
            html.raw("<p class=\"dns-unchecked\">")
            html.value(notChecked)
            html.raw("</p>\n")
        }
        if evidence.hops.isEmpty { html.raw("<p class=\"nohop\">no request was sent</p>\n") }
        let reproducing = !result.outcome.isPassed
        for (index, hop) in evidence.hops.enumerated() {
            let curl = reproducing ? CurlCommand.line(hop, of: evidence, redactor: html.redactor) : nil
            self.hop(hop, number: index + 1, redirected: index > 0, curl: curl, into: &html)
        }
        guard !evidence.notes.isEmpty else { return }
        html.raw("<ul class=\"notes\">\n")
        for note in evidence.notes {
            html.raw("<li>note: ")
            html.value(note)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    /// What a resolver answered for one host: each question's answer, a foreign address
    /// marked where it appears and listed again under the table.
    private static func dns(_ lookup: DNSLookupEvidence, into html: inout HTMLWriter) {
        html.raw("<div class=\"dns\"><h4>dns: ")
        html.value(lookup.host)
        html.raw(" from resolver ")
        html.value(lookup.resolver)
        if let within = lookup.within {
            html.raw(lookup.foreign.isEmpty ? ", within " : ", <strong class=\"foreign\">not within</strong> ")
            html.value(within.map { "'\($0)'" }.joined(separator: ", "))
        }
        html.raw("</h4><table class=\"dns-questions\"><tr><th>type</th><th>rcode</th><th>addresses</th><th>ttl</th><th>cname</th><th>ms</th></tr>\n")
        for question in lookup.questions {
            html.raw("<tr><td>")
            html.value(question.type)
            html.raw("</td><td>")
            html.value(question.rcode, or: "-")
            html.raw("</td><td>")
            if let problem = question.problem { html.value(problem) }
            for (index, address) in question.addresses.enumerated() {
                if index > 0 { html.raw(" ") }
                if lookup.foreign.contains(address) {
                    html.raw("<mark class=\"foreign\" title=\"no map of expect.dns.within lists it\">")
                    html.value(address)
                    html.raw("</mark>")
                } else {
                    html.value(address)
                }
            }
            html.raw("</td><td>")
            if let ttl = question.ttl { html.number(ttl) } else { html.raw("-") }
            html.raw("</td><td>")
            html.value(question.aliases.joined(separator: " → "))
            html.raw("</td><td class=\"ms\">")
            html.milliseconds(question.duration)
            html.raw("</td></tr>\n")
        }
        html.raw("</table>")
        if !lookup.foreign.isEmpty {
            html.raw("<p class=\"foreign\">foreign: ")
            html.value(lookup.foreign.joined(separator: ", "))
            html.raw("</p>")
        }
        html.raw("</div>\n")
    }

    /// One request on the wire: what was sent, to where, and what came back; `curl`, how to
    /// send it again (a result that did not pass).
    private static func hop(_ hop: HopEvidence, number: Int, redirected: Bool, curl: String?, into html: inout HTMLWriter) {
        html.raw("<div class=\"hop\"><h4>hop ")
        html.number(number)
        if redirected { html.raw(" (redirect)") }
        html.raw(": ")
        html.value(hop.method)
        html.raw(" ")
        html.value(hop.originalURL)
        html.raw("</h4>\n<dl>")
        hop.describe(into: &html)
        if let curl {
            html.raw("<dt>curl</dt><dd><code class=\"curl\">")
            html.value(curl)
            html.raw("</code></dd>")
        }
        html.raw("</dl></div>\n")
    }
}
