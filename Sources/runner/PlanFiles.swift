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

    /// Each `--client` name that no plan's `clients:` has, with the closest one.
    static func clientProblems(_ names: [String], in plans: [Plan]) -> [String] {
        let named = Set(plans.flatMap { $0.clients.map(\.name) })
        return names.filter { !named.contains($0) }.map { name in
            let hint = Suggestion.closest(to: name, among: named.sorted()).map { "; did you mean '\($0)'?" }
                ?? (named.isEmpty ? "; the plans name no clients" : "; the plans' clients are \(named.sorted().joined(separator: ", "))")
            return "--client '\(name)' is no client of the plans\(hint)"
        }
    }
}
