import RunnerResults

/// `--curl FILE`: a bash script with, for every result in plan order, its outcome as a comment
/// and a line per request it sent that sends it again with curl on the same lane
/// (`CurlCommand`). Secrets are `"$NAME"` references; the header lists the names to set.
public final class CurlReport: StreamedReport {
    private let target: ReportTarget
    private let redactor: Redactor
    private let plans: [PlanIdentity]
    private let spool: ReportSpool
    /// The last time limits written (results are rendered one at a time: `ReportWorker`).
    private var timeLimits = CurlTimeLimits()

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
        spool.append(at: position, result) { [self] result, bytes in render(result, into: &bytes) }
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        spool.append(at: position, result) { [self] result, bytes in render(result, into: &bytes) }
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
        headline(result, to: &bytes)
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
        // Through the array's buffer: each hop is read in place (`CurlCommand.write(hopAt:)`).
        result.evidence.hops.withUnsafeBufferPointer { hops in
            guard let first = hops.baseAddress else { return }
            for index in hops.indices {
                if index > 0 {
                    bytes.append("# hop ")
                    ByteText.decimal(index + 1, to: &bytes)
                    bytes.append(": redirected to ")
                    bytes.append(utf8: Self.comment(hops[index].originalURL, redactor: redactor))
                    bytes.append(UInt8(ascii: "\n"))
                }
                CurlCommand.write(hopAt: first + index, of: result.evidence, redactor: redactor, timeLimits: &timeLimits, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// `OUTCOME name [strategy ip]` as a comment's text. With nothing to mask (most runs) it is
    /// written piece by piece, each made one line as the whole would be (character by
    /// character), with no string made for it; a secret could span pieces, so with secrets the
    /// text is joined and masked whole.
    private func headline(_ result: ScenarioResult, to bytes: inout ByteBuffer) {
        guard redactor.isEmpty else {
            return bytes.append(utf8: Self.comment(Self.outcomeWord(result.outcome) + " " + result.displayName, redactor: redactor))
        }
        switch result.outcome {
        case .passed: bytes.append("PASS")
        case .failed(let problems):
            bytes.append("FAIL")
            if let first = problems.first {
                bytes.append(" (")
                PlainText.appendSingleLine(first.subject, to: &bytes)
                bytes.append(UInt8(ascii: ")"))
            }
        case .errored(let error):
            bytes.append("ERROR (")
            PlainText.appendSingleLine(error.kind.rawValue, to: &bytes)
            bytes.append(UInt8(ascii: ")"))
        case .skipped: bytes.append("SKIP")
        }
        bytes.append(UInt8(ascii: " "))
        guard result.after.isEmpty else { return PlainText.appendSingleLine(result.displayName, to: &bytes) }
        // `displayName`'s pieces: only the scenario's name and the IP can hold what a comment
        // cannot (the strategy is one of a few names).
        PlainText.appendSingleLine(result.scenario, to: &bytes)
        bytes.append(" [")
        bytes.append(utf8: result.strategy.rawValue)
        if let ip = result.ip {
            bytes.append(UInt8(ascii: " "))
            PlainText.appendSingleLine(ip, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
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
