import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerResults

@main
struct RunnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Check that services still work when clients reach them by IP direct connect.",
        version: (["runner \(RunnerVersion.current)"] + LinkedLibraries.lines).joined(separator: "\n"),
        subcommands: [RunPlans.self, CheckPlans.self, ResolvePlans.self, ServePlans.self, MergeReports.self, StateCommand.self, AppCommand.self, InitCommand.self],
        defaultSubcommand: RunPlans.self)

    /// Parses and runs; an invalid command line exits 2 (the contract), not ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error))
                Console.error("See 'runner --help'.")
                Foundation.exit(ExitStatus.invalidInput)
            }
            exit(withError: error)
        }
    }
}

/// The contract's exit codes (130 and 143 for SIGINT and SIGTERM: `SignalHandlers`).
enum ExitStatus {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let invalidInput: Int32 = 2
    /// The run ended, but a report (or the state file, `--state`) could not be written after
    /// it: never 0 or 1, which a monitor (the systemd timer counts 1 as success) would read as
    /// "checked".
    static let reportNotWritten: Int32 = 3

    /// A finished run's status: the signal that ended it, else 3 when a report was not
    /// written, else 1 when any result failed or erred, else 0.
    static func of(_ run: RunResult, reportsWritten: Bool) -> Int32 {
        if let signal = run.interruptedBy { return SignalHandlers.exitStatus(for: signal) }
        guard reportsWritten else { return reportNotWritten }
        return run.counts.failed + run.counts.errors > 0 ? failed : passed
    }
}

/// The options every command that reads plans shares.
struct PlanOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Plan files (YAML); a folder stands for the *.yaml and *.yml files directly in it, in name order.",
        valueName: "PLAN|DIR"))
    var plans: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a plan variable (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(help: ArgumentHelp(
        "How plan errors are written: text (for a terminal, on standard error), json (a list), github (workflow commands: annotations) or gitlab (a Code Quality report); all but text on standard output.",
        valueName: "FORMAT"))
    var format: PlanErrorFormat = .text

    func validate() throws {
        guard !plans.isEmpty else { throw ValidationError("give at least one plan file") }
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--var takes NAME=VALUE, got '\(assignment)'")
            }
        }
    }

    /// `--var` assignments as a dictionary (a later one wins).
    var variableValues: [String: String] {
        var values: [String: String] = [:]
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return values
    }
}
