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
    }
}
