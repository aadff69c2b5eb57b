import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerResults
import RunnerState
import RunnerVocabulary

struct RunPlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run plans; exit 0 when every result passed.",
        discussion: """
            Exit status: 0 every result passed; 1 at least one failed or errored; 2 invalid command line, plan or report path (nothing ran); 3 the run ended but a report could not be written, or the state file (--state) could not record its HTTPDNS answers; 130 and 143 interrupted by SIGINT and SIGTERM.
            A report path of - is standard output (the console's lines then go to standard error); through a symlink the target is replaced and the link kept; /dev/stdout, /dev/fd/N, devices and FIFOs are written in place, never replaced.
            """)

    @OptionGroup var planOptions: PlanOptions

    @OptionGroup var selection: RunSelection

    @Option(help: ArgumentHelp(
        "Write Prometheus text metrics (atomically, for node_exporter's textfile collector).", valueName: "FILE"))
    var metrics: String?

    @Option(help: ArgumentHelp(
        "Write a bash script that sends each result's requests again with curl on the same lane (secrets as \"$NAME\").",
        valueName: "FILE"))
    var curl: String?

    @Flag(name: .shortAndLong, help: "Print only problems and the summary.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print the evidence of every result (and every TLS chain in --junit).")
    var verbose = false

    @Flag(help: "Print connections opened, peak memory and open files to stderr at the end.")
    var stats = false

    @Option(help: "Colour the console output: auto, always or never (NO_COLOR is honoured).")
    var color: TerminalChoice = .auto

    @Option(help: ArgumentHelp(
        "A live progress line on standard error (done/total, passed, failed, errors, rate, time left): auto (when standard error is a terminal and not --quiet), always or never."))
    var progress: TerminalChoice = .auto

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose exclude each other") }
        try RunSelection.checkReportPaths(selection.reportPaths + [metrics, curl].compactMap { $0 })
    }

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        var options = selection.runOptions
        let problems = selection.problems(with: plans)
        guard problems.isEmpty else {
            problems.forEach { Console.error("error: \($0)") }
            throw ExitCode(ExitStatus.invalidInput)
        }

        options.addressMemory = try selection.addressMemory(inMemory: false)
        let unremembered = options.addressMemory == nil ? RunSelection.unremembered(plans) : []
        if !unremembered.isEmpty {
            // Once, not per result: the run goes on with the current answers.
            Console.error("note: no --state FILE: retain on \(unremembered.joined(separator: ", ")) checks only the current answers; "
                + "give --state to remember what the services returned between runs")
        }
        let redactor = Redactor(named: plans.flatMap(\.secrets))
        options.redactor = redactor
        options.digestsBodies = verbose || selection.junit != nil || selection.json != nil || selection.html != nil
        let identities = plans.map { PlanIdentity(name: $0.name, file: $0.path) }
        // Opened before the run, so a report that cannot be written is known before an hour of
        // it; and before the console is set up, which moves to standard error when a report
        // takes standard output (`--junit -`).
        let reports: [any StreamedReport]
        do throws(ReportWriteError) {
            let targets = try ReportTargets(
                junit: selection.junit, json: selection.json, html: selection.html, curl: curl, metrics: metrics)
            if targets.takeStandardOutput { Console.moveOutputToStandardError() }
            reports = try ReportSet(
                targets, plans: identities, redactor: redactor, version: RunnerVersion.current, verbose: verbose
            ).reports
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let formatter = ConsoleFormatter(
            color: useColor(on: Console.outputIsTerminal), verbosity: quiet ? .quiet : verbose ? .verbose : .normal, redactor: redactor)
        let progressCounter = showProgress ? ProgressCounter() : nil
        let display = progressCounter.map { ProgressDisplay(counter: $0, color: useColor(on: Console.errorIsTerminal)) }
        let console = ConsoleReport(formatter: formatter, plans: identities) { line in
            if let display { display.print(line) } else { Console.output(line) }
        }
        let reportWorker = ReportWorker(reports)
        let sinks: [any ResultSink] = [console] + (reports.isEmpty ? [] : [reportWorker]) + (progressCounter.map { [$0] } ?? [])
        let runner = PlanRunner(options: options, sink: ResultFanOut(sinks))
        let interrupter = runner.interrupter
        SignalHandlers.install(stop: { interrupter.interrupt(signal: $0) }, beforeExit: { display?.stop() })
        // Counted once the process's own fixtures (signal sources) and the reports' spools
        // exist: what the run opens must all be closed when it ends.
        let descriptorsAtStart = ProcessResources.openSocketsAndFiles()
        let run: RunResult
        do {
            run = try runner.run(plans)
        } catch {
            display?.stop()
            Console.error("error: \(redactor.redact(error.description))")
            throw ExitCode(ExitStatus.failed)
        }
        display?.stop()
        // Answers the state file could not take are said, and the run does not end as checked
        // (exit 3, as for a report not written): the next run would not know of those addresses.
        if let recording = run.stateRecording, !recording.isComplete {
            Console.error("error: \(redactor.redact(recording.summary(listed: 20))); the next run will not know of the addresses these answers returned")
        }

        let reportErrors = reportWorker.finish(run)
        reportErrors.forEach { Console.error("error: \($0.description)") }
        Console.output(console.summary(for: run))
        if stats { Console.error(Self.statsLine(run, descriptorsAtStart: descriptorsAtStart)) }
        let status = ExitStatus.of(run, reportsWritten: reportErrors.isEmpty && run.stateRecorded)
        // Ends the process here instead of returning: unwinding would free every plan and the
        // run's bookkeeping piece by piece (tens of milliseconds at 40,000 results) for nothing.
        // They must stay alive until then, or they are released right after their last use above.
        withExtendedLifetime((plans, runner, run, reportWorker, display)) { Foundation.exit(status) }
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

    /// Colour for a stream: `--color always`/`never`, or under `auto` a terminal without `NO_COLOR`.
    private func useColor(on terminal: Bool) -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return !noColor && terminal
        }
    }

    /// `--progress always`, or under `auto` a terminal on standard error and no `--quiet`.
    private var showProgress: Bool {
        switch progress {
        case .always: return true
        case .never: return false
        case .auto: return !quiet && Console.errorIsTerminal
        }
    }
}
