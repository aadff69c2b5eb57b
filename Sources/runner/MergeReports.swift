import ArgumentParser
import Foundation
import RunnerEngine
import RunnerReport
import RunnerResults

/// `runner merge`: the JSON reports of a run's shards joined into one run's reports.
struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of a run's shards (--shard K/N) into one run's reports.",
        discussion: """
            Each shard writes its JSON report (--json); merge reads them all and writes the reports \
            of the whole run, as one run would have written them: a suite per plan, results in plan \
            order, counts from the results, times from the first shard's start to the last one's end. \
            Exit 0 when every merged result passed, 1 when any did not, 2 when a report cannot be read, \
            is given twice, holds a result another one holds, or a shard of the split is missing.
            """)

    @Option(help: ArgumentHelp("Write the merged JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the merged JSON report.", valueName: "FILE"))
    var json: String?

    @Option(help: ArgumentHelp("Write the merged HTML report.", valueName: "FILE"))
    var html: String?

    @Argument(help: ArgumentHelp("The shards' JSON reports.", valueName: "REPORT"))
    var reports: [String] = []

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give the JSON reports to merge") }
        guard !outputs.isEmpty else { throw ValidationError("give --junit FILE, --json FILE, --html FILE or several: what to write") }
        try RunSelection.checkReportPaths(outputs)
    }

    func run() throws {
        let merged: MergedRun
        do throws(MergeError) {
            var inputs: [ReportInput] = []
            for path in reports { inputs.append(try Self.read(path)) }
            merged = try ReportMerge.merge(inputs)
        } catch {
            Console.error("error: merge: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        try write(merged)
        let counts = merged.run.counts
        Console.output(counts.summaryLine)
        if counts.failed + counts.errors > 0 || merged.run.interruptedBy != nil { throw ExitCode(ExitStatus.failed) }
    }

    private var outputs: [String] { [junit, json, html].compactMap { $0 } }

    private static func read(_ path: String) throws(MergeError) -> ReportInput {
        do {
            return ReportInput(path: path, bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: FileProblem.reason(error))
        }
    }

    /// Writes each report asked for through the same writers a run uses (no secrets are left
    /// to mask: the shards' reports were masked when written).
    private func write(_ merged: MergedRun) throws {
        let redactor = Redactor(secrets: [])
        let reports: [any StreamedReport]
        do throws(ReportWriteError) {
            let targets = try ReportTargets(junit: junit, json: json, html: html)
            if targets.takeStandardOutput { Console.moveOutputToStandardError() }
            reports = try ReportSet(targets, plans: merged.plans, redactor: redactor, version: RunnerVersion.current).reports
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        for (result, position) in merged.results {
            for report in reports { report.finished(result, at: position) }
        }
        var written = true
        for report in reports {
            do throws(ReportWriteError) {
                try report.finish(merged.run)
            } catch {
                Console.error("error: \(error.description)")
                written = false
            }
        }
        if !written { throw ExitCode(ExitStatus.reportNotWritten) }
    }
}
