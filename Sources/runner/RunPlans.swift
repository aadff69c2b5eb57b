import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerResults
import RunnerVocabulary

struct RunPlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run plans; exit 0 when every result passed.")

    @OptionGroup var planOptions: PlanOptions

    @OptionGroup var selection: RunSelection

    @Option(help: ArgumentHelp(
        "Write Prometheus text metrics (atomically, for node_exporter's textfile collector).", valueName: "FILE"))
    var metrics: String?

    @Flag(name: .shortAndLong, help: "Print only problems and the summary.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print the evidence of every result.")
    var verbose = false

    @Flag(help: "Print connections opened, peak memory and open files to stderr at the end.")
    var stats = false

    @Option(help: "Colour the console output: auto, always or never (NO_COLOR is honoured).")
    var color: ColorChoice = .auto

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose exclude each other") }
        if let metrics { try RunSelection.checkDirectory(of: metrics) }
    }

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        var options = selection.runOptions
        let problems = selection.problems(with: plans)
        guard problems.isEmpty else {
            problems.forEach { Console.error("error: \($0)") }
            throw ExitCode(ExitStatus.invalidInput)
        }

        let redactor = Redactor(secrets: plans.flatMap(\.secrets))
        options.redactor = redactor
        let identities = plans.map { PlanIdentity(name: $0.name, file: $0.path) }
        let formatter = ConsoleFormatter(
            color: useColor, verbosity: quiet ? .quiet : verbose ? .verbose : .normal, redactor: redactor)
        let console = ConsoleReport(formatter: formatter, plans: identities) { Console.output($0) }
        // Opened before the run, so a report that cannot be written is known before an hour of it.
        var reports: [any StreamedReport] = []
        do throws(ReportWriteError) {
            if let junit = selection.junit { reports.append(try JUnitReport(path: junit, plans: identities, redactor: redactor)) }
            if let json = selection.json { reports.append(try JSONReport(path: json, plans: identities, redactor: redactor)) }
            if let html = selection.html { reports.append(try HTMLReport(path: html, plans: identities, redactor: redactor)) }
            if let metrics {
                reports.append(try MetricsReport(
                    path: metrics, plans: identities, redactor: redactor, version: RunnerVersion.current))
            }
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let reportWorker = ReportWorker(reports)
        let runner = PlanRunner(options: options, sink: ResultFanOut(reports.isEmpty ? [console] : [console, reportWorker]))
        InterruptSignals.install(runner.interrupter)
        // Counted once the process's own fixtures (signal sources) and the reports' spools
        // exist: what the run opens must all be closed when it ends.
        let descriptorsAtStart = ProcessResources.openSocketsAndFiles()
        let run: RunResult
        do {
            run = try runner.run(plans)
        } catch {
            Console.error("error: \(redactor.redact(error.description))")
            throw ExitCode(ExitStatus.failed)
        }

        let reportErrors = reportWorker.finish(run)
        reportErrors.forEach { Console.error("error: \($0.description)") }
        let reportFailed = !reportErrors.isEmpty
        Console.output(console.summary(for: run))
        if stats { Console.error(Self.statsLine(run, descriptorsAtStart: descriptorsAtStart)) }
        let counts = run.counts
        let status = run.interruptedBy.map(InterruptSignals.exitStatus(for:))
            ?? (counts.failed + counts.errors > 0 || reportFailed ? ExitStatus.failed : ExitStatus.passed)
        // Ends the process here instead of returning: unwinding would free every plan and the
        // run's bookkeeping piece by piece (tens of milliseconds at 40,000 results) for nothing.
        // They must stay alive until then, or they are released right after their last use above.
        withExtendedLifetime((plans, runner, run, reportWorker)) { Foundation.exit(status) }
    }

    /// `stats: …` — counted after the engine is gone, so leaked connections or files show.
    private static func statsLine(_ run: RunResult, descriptorsAtStart: Int?) -> String {
        let mebibytes = Double(ProcessResources.peakResidentBytes()) / 1_048_576
        let descriptors = [descriptorsAtStart, ProcessResources.openSocketsAndFiles()].map { $0.map(String.init) ?? "?" }
        let connections = run.connectionsOpened == 1 ? "1 connection" : "\(run.connectionsOpened) connections"
        return "stats: \(run.counts.total) results, \(connections) opened, "
            + "peak RSS \(String(format: "%.1f", mebibytes)) MiB, "
            + "open sockets and files \(descriptors[0]) at start, \(descriptors[1]) at end"
    }

    private var useColor: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return !noColor && Console.outputIsTerminal
        }
    }
}
