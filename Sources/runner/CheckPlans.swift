import ArgumentParser
import Foundation
import RunnerPlan

struct CheckPlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate plans without running them; exit 0, or 2 with the errors.",
        discussion: """
            --no-env checks a plan where its secrets are absent (a pull request's CI job): no environment variable is read, each ${env:…} and ${secret:…} is checked for its syntax and place, a value one of them makes is not checked (a note says so), and the variables the plan reads are listed (PLAN: needs: NAME (secret), …).
            """)

    @OptionGroup var planOptions: PlanOptions

    @Flag(name: .customLong("no-env"), help: "Read no environment variable: check everything else, note what only their values decide, and list the variables the plans need.")
    var noEnvironment = false

    func run() throws {
        let checks = try PlanFiles.check(
            planOptions, unsetEnvironment: noEnvironment ? .unknown : .error, alwaysWrite: true)
        // A document (json, gitlab) holds standard output alone: these lines go to standard error.
        let toStandardError = planOptions.format.isDocument
        func line(_ text: String) {
            if toStandardError { Console.error(text) } else { Console.output(text) }
        }
        for check in checks {
            let plan = check.plan
            line("\(plan.path): ok (\(check.scenarioCount) scenario\(check.scenarioCount == 1 ? "" : "s"))")
            if noEnvironment, !check.environment.isEmpty {
                let needs = check.environment.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                    .map { "\($0.name) (\($0.isSecret ? "secret" : "env"))" }
                line("\(plan.path): needs: \(needs.joined(separator: ", "))")
            }
        }
        // Nothing is left to do: exit now rather than free every scenario one by one (a large
        // plan holds millions of objects). The plans must stay alive until then, or they are
        // released right after their last use above.
        withExtendedLifetime(checks) { Foundation.exit(ExitStatus.passed) }
    }
}
