import ArgumentParser
import Foundation
import RunnerEngine

@main
struct RunnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Check that services still work when clients reach them by IP direct connect.",
        version: (["runner \(RunnerVersion.current)"] + LinkedLibraries.lines).joined(separator: "\n"),
        subcommands: [RunPlans.self, CheckPlans.self, ServePlans.self, MergeReports.self],
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

/// The contract's exit codes.
enum ExitStatus {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let invalidInput: Int32 = 2
}

/// The options every command that reads plans shares.
struct PlanOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Plan files (YAML); a folder stands for the *.yaml and *.yml files directly in it, in name order.",
        valueName: "PLAN|DIR"))
    var plans: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a plan variable (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

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
