import ArgumentParser
import Foundation

struct CheckPlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate plans without running them; exit 0, or 2 with the errors.")

    @OptionGroup var planOptions: PlanOptions

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        for plan in plans {
            Console.output("\(plan.path): ok (\(plan.scenarios.count) scenario\(plan.scenarios.count == 1 ? "" : "s"))")
        }
        // Nothing is left to do: exit now rather than free every scenario one by one (a large
        // plan holds millions of objects). The plans must stay alive until then, or they are
        // released right after their last use above.
        withExtendedLifetime(plans) { Foundation.exit(ExitStatus.passed) }
    }
}
