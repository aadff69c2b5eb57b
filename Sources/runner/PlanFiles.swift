import ArgumentParser
import Foundation
import RunnerPlan

/// Loads every plan named on the command line (a folder stands for the plans in it); any error
/// in any plan stops everything (exit 2).
enum PlanFiles {
    static func load(_ options: PlanOptions) throws -> [Plan] {
        let environment = ProcessInfo.processInfo.environment
        let paths: [String]
        do throws(PlanErrors) {
            paths = try PlanPaths.expand(options.plans)
        } catch {
            Console.error(error.description)
            throw ExitCode(ExitStatus.invalidInput)
        }
        var plans: [Plan] = []
        var failed = false
        for path in paths {
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
