import RunnerResults

/// `--curl FILE`: a bash script with, for every result in plan order, its outcome as a comment
/// and a line per request it sent that sends it again with curl on the same lane
/// (`CurlCommand`). Secrets are `"$NAME"` references; the header lists the names to set.
public final class CurlReport: StreamedReport {
    private let target: ReportTarget
    private let redactor: Redactor
    private let plans: [PlanIdentity]
    private let spool: ReportSpool

    /// A script to be written to `path` for a run of `plans`; fails at once when nothing can
    /// be written beside `path`.
    public convenience init(path: String, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        try self.init(target: ReportTarget(path: path), plans: plans, redactor: redactor)
    }

    /// The same, for a path already judged and opened (`ReportTarget`).
    public init(target: ReportTarget, plans: [PlanIdentity], redactor: Redactor) throws(ReportWriteError) {
        self.target = target
        self.redactor = redactor
        self.plans = plans
        spool = try ReportSpool(for: target)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        spool.append(at: position) { render(result, into: &$0) }
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        spool.append(at: position) { render(result, into: &$0) }
    }

    /// Writes the script, atomically: the header, then each plan's results.
    public func finish(_ run: RunResult) throws(ReportWriteError) {
        try target.write { (output: inout FileOutput) throws(ReportWriteError) in
            output.write("""
                #!/usr/bin/env bash
                # Written by runner: each result's requests sent again with curl on the same lane (the same
                # IP, Host, SNI and trust choice). Run a line by hand, or the whole file with bash.

                """)
            let names = redactor.secretNames
            if !names.isEmpty {
                output.write("# Secrets are read from the environment: set \(names.joined(separator: ", ")) before running.\n")
            }
            for (index, plan) in plans.enumerated() {
                output.write("\n# plan \(Self.comment("'\(plan.name)' (\(plan.file))", redactor: redactor))\n")
                _ = try spool.replay(suite: index, separator: [], into: &output)
            }
        }
    }

    /// `# OUTCOME name [strategy ip]`, each app's rules and warnings, then a line per hop (`# hop N` before each after the
    /// first), or a comment that nothing was sent.
    private func render(_ result: ScenarioResult, into bytes: inout ByteBuffer) {
        bytes.append("# ")
        bytes.append(utf8: Self.comment(Self.outcomeWord(result.outcome) + " " + result.displayName, redactor: redactor))
        bytes.append(UInt8(ascii: "\n"))
        // The rules each app applied (`app:`): what curl does not check, and the app would.
        for policy in result.evidence.appPolicies {
            bytes.append("# app policy: ")
            bytes.append(utf8: Self.comment(policy.summary, redactor: redactor))
            bytes.append(UInt8(ascii: "\n"))
        }
        for warning in result.evidence.appWarnings {
            bytes.append("# app warning: ")
            bytes.append(utf8: Self.comment(warning.description, redactor: redactor))
            bytes.append(UInt8(ascii: "\n"))
        }
        if result.evidence.hops.isEmpty {
            bytes.append("# no request was sent\n")
        }
        for (index, hop) in result.evidence.hops.enumerated() {
            if index > 0 {
                bytes.append("# hop ")
                ByteText.decimal(index + 1, to: &bytes)
                bytes.append(": redirected to ")
                bytes.append(utf8: Self.comment(hop.originalURL, redactor: redactor))
                bytes.append(UInt8(ascii: "\n"))
            }
            CurlCommand.write(hop, of: result.evidence, redactor: redactor, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    private static func outcomeWord(_ outcome: Outcome) -> String {
        switch outcome {
        case .passed: "PASS"
        case .failed(let problems): "FAIL" + (problems.first.map { " (\($0.subject))" } ?? "")
        case .errored(let error): "ERROR (\(error.kind.rawValue))"
        case .skipped: "SKIP"
        }
    }

    /// Text for a comment: redacted, on one line (a name cannot end the comment and start code).
    private static func comment(_ text: String, redactor: Redactor) -> String {
        PlainText.singleLine(redactor.redact(text))
    }
}
