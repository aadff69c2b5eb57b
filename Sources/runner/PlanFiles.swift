import ArgumentParser
import Foundation
import RunnerPlan

/// Loads every plan named on the command line; any error in any plan stops everything (exit 2).
enum PlanFiles {
    static func load(_ options: PlanOptions) throws -> [Plan] {
        let environment = ProcessInfo.processInfo.environment
        var plans: [Plan] = []
        var failed = false
        for path in options.plans {
            do throws(PlanErrors) {
                plans.append(try PlanLoader.load(path: path, variables: options.variableValues, environment: environment))
            } catch {
                failed = true
                Console.error(error.description)
            }
        }
        if failed { throw ExitCode(ExitStatus.invalidInput) }
        return plans
    }
}
