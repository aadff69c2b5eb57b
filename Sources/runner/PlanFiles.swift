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

    /// A map asked as client populations cannot be run yet (issue 33 in progress): asking it as
    /// this machine would pass a check every population may fail. One message per such map.
    static func populationProblems(_ plans: [Plan]) -> [String] {
        plans.flatMap { plan in
            plan.mapsAskingAsClients.map { map in
                "\(map.location): domain map '\(map.name)' asks as client populations ('clients'), which this runner "
                    + "checks ('runner check') but does not ask as yet; remove 'clients' to ask as this machine"
            }
        }
    }
}
