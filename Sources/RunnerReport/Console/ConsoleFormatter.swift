import RunnerResults

/// How much the console says per result.
public enum Verbosity: Sendable, Equatable {
    /// Only what did not pass, and the summary.
    case quiet
    /// One line per result, and the summary.
    case normal
    /// Each line followed by every problem and the full evidence.
    case verbose
}

/// Turns results into the console's lines: one per result while running, then a summary.
public struct ConsoleFormatter: Sendable {
    private let color: Bool
    private let verbosity: Verbosity
    private let redactor: Redactor

    /// Continuation lines sit under the scenario name (after the 6-column label).
    private static let indent = String(repeating: " ", count: 6)

    /// A formatter; `color` adds ANSI colours (decided by the caller from `--color`/`NO_COLOR`/tty).
    public init(color: Bool, verbosity: Verbosity, redactor: Redactor) {
        self.color = color
        self.verbosity = verbosity
        self.redactor = redactor
    }

    /// The line (and, for errors or in verbose mode, its indented continuation lines) for one
    /// result, without a trailing newline; nil when quiet and the result passed or was skipped.
    public func line(for result: ScenarioResult) -> String? {
        if verbosity == .quiet {
            switch result.outcome {
            case .passed, .skipped: return nil
            case .failed, .errored: break
            }
        }
        var lines = [headline(for: result)]
        if case .errored(let error) = result.outcome, let diagnosis = error.diagnosis {
            lines += diagnosisLines(diagnosis)
        }
        if verbosity == .verbose {
            if case .failed(let problems) = result.outcome {
                lines += problems.map { Self.indent + "- " + text($0.description) }
            }
            for (number, attempt) in zip(1..., result.earlierAttempts) {
                lines.append(paint(Self.indent + "attempt \(number): " + attemptSummary(attempt.outcome), .dim))
            }
            lines += EvidenceText.lines(for: result, redactor: redactor).map { evidenceLine in
                let line = Self.indent + PlainText.singleLine(evidenceLine)
                return evidenceLine == EvidenceText.insecureLine ? paint(line, .yellow) : paint(line, .dim)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What the summary keeps of a result that did not pass, under `Not passing:`; nil for
    /// one that passed or was skipped.
    func notPassing(_ result: ScenarioResult, plan: String, at position: ResultPosition) -> ConsoleTally.NotPassing? {
        let label: Label
        let why: String
        let reason: String
        switch result.outcome {
        case .failed(let problems):
            label = .fail
            why = firstProblem(problems)
            reason = shortReason(problems)
        case .errored(let error):
            label = .error
            why = "\(error.kind.rawValue): \(text(error.message))"
            reason = error.kind.rawValue
        case .passed, .skipped:
            return nil
        }
        return ConsoleTally.NotPassing(
            position: position, line: "  \(paint(label)) \(text(plan)): \(text(result.displayName)) — \(why)",
            plan: plan, scenario: result.scenario, failed: label == .fail, strategy: result.strategy, ip: result.ip, after: result.after, reason: reason)
    }

    /// One word or two for why a failed result failed: the first problem's subject. A
    /// scheduling miss's subject names its client, so the kind is said instead; a failing
    /// pick's problem leads, naming who the address fails, so the problem after it says why.
    private func shortReason(_ problems: [Problem]) -> String {
        guard let first = problems.first(where: { $0.kind != .pick }) else {
            return problems.isEmpty ? "expectations" : Problem.Kind.pick.rawValue
        }
        return first.kind == .scheduling ? first.kind.rawValue : text(first.subject)
    }

    /// At most this many results are named in a scenario's group line.
    static let groupMembersNamed = 10

    /// A scenario that fanned out, on one line, what did not pass first:
    /// `  FAIL  plan: api-up [sni-resolve] 48/50 IPs passed; failing: 10.0.0.7 tls, 10.0.0.9 timeout`.
    private func groupLine(
        plan: String, scenario: String, size: ConsoleTally.ScenarioSize, members: [ConsoleTally.NotPassing]) -> String {
        let label: Label = members.contains(where: \.failed) ? .fail : .error
        let shared = size.sharedStrategy
        let heading = shared.map { "\(text(scenario)) [\($0)]" } ?? text(scenario)
        let unit = shared != nil && !size.hasLanes ? "IPs" : "results"
        let named = members.prefix(Self.groupMembersNamed).map { member in
            var place = member.ip ?? "system"
            if shared == nil { place = "\(member.strategy) " + place }
            if !member.after.isEmpty { place += " after " + member.after.map { text($0.description) }.joined(separator: " after ") }
            return "\(text(place)) \(member.reason)"
        }
        let more = members.count > Self.groupMembersNamed ? ", and \(members.count - Self.groupMembersNamed) more" : ""
        return "  \(paint(label)) \(text(plan)): \(heading) \(size.passed)/\(size.results) \(unit) passed; failing: "
            + named.joined(separator: ", ") + more
    }

    /// The summary by client: under each scenario on a map asked as clients, a line per
    /// population, `    gd-mobile: 3/3 edges pass`, with the failing edges and misses after it.
    private func populationLines(_ populations: ClientEdgeTally, picks: PickTally, plans: [String]) -> [String] {
        var lines = ["Clients:"]
        var scenario: (suite: Int, scenario: String)?
        for (key, edges) in populations.inPlanOrder() {
            if scenario.map({ $0 != (key.suite, key.scenario) }) ?? true {
                let plan = plans.indices.contains(key.suite) ? plans[key.suite] : "?"
                lines.append("  \(text(plan)): \(text(key.scenario))")
                scenario = (key.suite, key.scenario)
            }
            var line = "    \(text(key.client)): \(edges.passing)/\(edges.addresses.count) edges pass"
            if !edges.failing.isEmpty {
                line += "; failing: " + edges.failing.map { "\(text($0.address)) \($0.reason)" }.joined(separator: ", ")
            }
            if let why = edges.noAddress { line += "; no address: \(why)" }
            if edges.misses > 0 { line += "; " + Format.count(edges.misses, "scheduling miss", "scheduling misses") }
            lines.append(edges.passing == 0 ? paint(line, .red) : line)
            // The address(es) its apps use (`sdk:`), under it.
            lines += picks.picks(for: key).map { pickLine($0, indent: "      ") }
        }
        return lines
    }

    /// The picks of the maps asked as this machine (no `clients:`, so no line above to put them
    /// under): `    this machine picks 127.0.0.2 for api.lab.test (fastest connect, 0.3 ms): passed`.
    private func pickLines(_ picks: PickTally, except shown: ClientEdgeTally, plans: [String]) -> [String] {
        let shownKeys = Set(shown.inPlanOrder().map(\.key))
        var lines: [String] = []
        var scenario: (suite: Int, scenario: String)?
        for (key, picked) in picks.inPlanOrder() where !shownKeys.contains(key) {
            if scenario.map({ $0 != (key.suite, key.scenario) }) ?? true {
                let plan = plans.indices.contains(key.suite) ? plans[key.suite] : "?"
                lines.append("  \(text(plan)): \(text(key.scenario))")
                scenario = (key.suite, key.scenario)
            }
            lines += picked.map { pickLine($0, indent: "    " + text(key.client) + " ") }
        }
        return lines.isEmpty ? [] : ["Picks:"] + lines
    }

    /// `picks 127.0.0.2 for api.lab.test (fastest connect, 0.3 ms): passed`, or `: FAILED (status)`
    /// in red: the address a population's apps use, and how the results on it came out.
    private func pickLine(_ pick: PickTally.Pick, indent: String) -> String {
        let line = indent + "picks \(text(pick.address)) for \(text(pick.host)) (\(text(pick.reason))): "
        switch pick.state {
        case .passed: return line + "passed"
        case .skipped: return line + "not run"
        case .failed(let why): return paint(line + "FAILED" + (why.isEmpty ? "" : " (\(why))"), .red)
        }
    }

    /// The end-of-run summary; its last line is exactly `run.counts.summaryLine`, uncoloured,
    /// so scripts can read it.
    func summary(for run: RunResult, tally: ConsoleTally) -> String {
        var lines: [String] = []
        if !tally.notPassing.isEmpty {
            lines.append("Not passing:")
            for (size, members) in tally.groups() {
                guard size.results > 1, let first = members.first else {
                    lines += members.map(\.line)
                    continue
                }
                lines.append(groupLine(plan: first.plan, scenario: first.scenario, size: size, members: members))
            }
        }
        let plans = run.suites.map(\.plan.name)
        if !tally.populations.isEmpty { lines += populationLines(tally.populations, picks: tally.picks, plans: plans) }
        if !tally.picks.isEmpty { lines += pickLines(tally.picks, except: tally.populations, plans: plans) }
        let (insecure, fallbacks, flaky) = (tally.insecure, tally.fallbacks, tally.flaky)
        if insecure > 0 {
            lines.append(paint(
                "INSECURE: \(Format.count(insecure, "result", "results")) skipped certificate verification (insecure: true)",
                .yellow))
        }
        if flaky > 0 {
            lines.append(paint(
                "FLAKY: \(Format.count(flaky, "result", "results")) passed only on a retry",
                .yellow))
        }
        if fallbacks > 0 {
            lines.append(paint(
                "FALLBACK: \(Format.count(fallbacks, "result", "results")) resolved through a fallback because an HTTPDNS service failed",
                .yellow))
        }
        if let recording = run.stateRecording, !recording.isComplete {
            lines.append(paint("STATE NOT RECORDED: " + redactor.redact(recording.summary()), .red))
        }
        if let signal = run.interruptedBy {
            lines.append(paint(
                "Interrupted by \(Format.signalName(signal)): results that had not finished are marked skipped.",
                .yellow))
        }
        let counts = run.counts
        lines.append(paint(
            "Ran \(Format.count(counts.total, "result", "results")) from \(Format.count(run.suites.count, "plan", "plans")) in \(Format.human(run.duration))",
            .dim))
        lines.append(counts.summaryLine)
        return lines.joined(separator: "\n")
    }

    // MARK: - Pieces

    private func headline(for result: ScenarioResult) -> String {
        var line = paint(Label(result.outcome)) + " " + text(result.displayName)
        if result.evidence.insecure { line += " " + paint("[INSECURE]", .yellow) }
        if result.evidence.resolutionFallbackFrom != nil { line += " " + paint("[FALLBACK]", .yellow) }
        // An address the service no longer returns, checked because apps still hold it.
        if result.evidence.retained != nil { line += " " + paint("[RETAINED]", .yellow) }
        // An address a population's HTTPDNS SDK hands its apps (`sdk:`): their traffic is here.
        if let pick = result.evidence.pick, !pick.pickers.isEmpty { line += " " + paint("[PICK]", .cyan) }
        if result.isFlaky { line += " " + paint("[FLAKY]", .yellow) }
        // Run because a scenario --tag or --filter chose runs after it.
        if result.predecessorOnly { line += " " + paint("[PREDECESSOR]", .dim) }
        switch result.outcome {
        case .passed:
            line += facts(for: result)
            if result.isFlaky { line += "  passed on attempt \(result.attemptCount)" }
        case .failed(let problems):
            line += facts(for: result) + " — " + firstProblem(problems) + attemptsNote(result)
        case .errored(let error):
            line += " — \(error.kind.rawValue): \(text(error.message))" + attemptsNote(result)
        case .skipped(let reason):
            line += " — " + text(reason)
        }
        return line
    }

    /// ` (3 attempts)` after a result that never passed, when it was retried.
    private func attemptsNote(_ result: ScenarioResult) -> String {
        result.attemptCount > 1 ? " (\(result.attemptCount) attempts)" : ""
    }

    /// What one earlier attempt came to, on one line.
    private func attemptSummary(_ outcome: Outcome) -> String {
        switch outcome {
        case .failed(let problems): "FAIL — " + firstProblem(problems)
        case .errored(let error): "ERROR — \(error.kind.rawValue): \(text(error.message))"
        case .passed: "PASS"
        case .skipped(let reason): "SKIP — " + text(reason)
        }
    }

    /// `  200  h2  123 ms`: the final hop's status and protocol, and the result's duration.
    private func facts(for result: ScenarioResult) -> String {
        var facts: [String] = []
        if let last = result.evidence.hops.last {
            if let status = last.status { facts.append(String(status)) }
            if let version = last.httpVersion { facts.append(Self.protocolName(text(version))) }
        }
        facts.append("\(Format.fixed(result.duration.inMilliseconds, decimals: 0)) ms")
        return facts.map { "  " + $0 }.joined()
    }

    private func firstProblem(_ problems: [Problem]) -> String {
        guard let first = problems.first else { return "expectations not met" }
        let more = problems.count > 1 ? " (+\(problems.count - 1) more)" : ""
        return text(first.description) + more
    }

    /// A multi-line diagnosis stays readable: first line labelled, the rest aligned under it.
    private func diagnosisLines(_ diagnosis: String) -> [String] {
        let parts = redactor.redact(diagnosis).split(separator: "\n", omittingEmptySubsequences: false)
        return parts.enumerated().map { index, part in
            let prefix = index == 0 ? Self.indent + "diagnosis: " : Self.indent + "           "
            return paint(prefix + PlainText.singleLine(String(part)), .dim)
        }
    }

    /// `h2` and `h3` as ALPN calls them; `http/1.1` otherwise.
    private static func protocolName(_ version: String) -> String {
        switch version {
        case "2", "3": "h" + version
        default: "http/" + version
        }
    }

    /// Redacted, then made one safe line: server text must not drive the terminal.
    private func text(_ value: String) -> String {
        PlainText.singleLine(redactor.redact(value))
    }

    // MARK: - Colour

    private enum Label: String {
        case pass = "PASS "
        case fail = "FAIL "
        case error = "ERROR"
        case skip = "SKIP "

        init(_ outcome: Outcome) {
            switch outcome {
            case .passed: self = .pass
            case .failed: self = .fail
            case .errored: self = .error
            case .skipped: self = .skip
            }
        }

        var style: ANSIStyle {
            switch self {
            case .pass: .green
            case .fail, .error: .red
            case .skip: .yellow
            }
        }
    }

    private func paint(_ label: Label) -> String {
        // Colour the word only, so padding stays plain.
        let word = label.rawValue.trimmingTrailingSpaces
        return paint(word, label.style) + String(repeating: " ", count: label.rawValue.count - word.count)
    }

    private func paint(_ text: String, _ style: ANSIStyle) -> String {
        style.paint(text, when: color)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
