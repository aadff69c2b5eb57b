import ArgumentParser
import Foundation
import RunnerPlan

/// Loads every plan named on the command line (a folder stands for the plans in it); any error
/// in any plan stops everything (exit 2). The errors are written in `--format`.
enum PlanFiles {
    static func load(_ options: PlanOptions) throws -> [Plan] {
        try check(options, unsetEnvironment: .error, alwaysWrite: false).map(\.plan)
    }

    /// Each plan checked, with what could not be checked and the environment it reads.
    ///
    /// - Parameters:
    ///   - unsetEnvironment: `.unknown` reads no environment at all (`runner check --no-env`):
    ///     the result is the same wherever it runs, with the secrets or without.
    ///   - alwaysWrite: writes a `json` or `gitlab` document when nothing was found too (an
    ///     empty list), for `runner check`, whose output is that document; a run writes one only
    ///     when it stops on a plan error (its standard output is the run's otherwise).
    static func check(_ options: PlanOptions, unsetEnvironment: UnsetEnvironment, alwaysWrite: Bool) throws -> [PlanCheck] {
        let environment = unsetEnvironment == .unknown ? [:] : ProcessInfo.processInfo.environment
        let format = options.format
        var findings: [PlanFinding] = []
        /// Text goes out as each plan is read (a large folder shows its first errors early).
        func found(_ errors: [PlanError], in plan: String) {
            guard !errors.isEmpty else { return }
            if format == .text {
                Console.error(PlanErrors(errors).description)
            } else {
                findings += errors.map { PlanFinding(plan: plan, error: $0) }
            }
        }
        let paths: [String]
        do throws(PlanErrors) {
            paths = try PlanPaths.expand(options.plans)
        } catch {
            found(error.errors, in: options.plans.first ?? ".")
            try write(findings, in: format)
            throw ExitCode(ExitStatus.invalidInput)
        }
        var checks: [PlanCheck] = []
        var failed = false
        for path in paths {
            do throws(PlanErrors) {
                let check = try PlanLoader.check(
                    path: path, variables: options.variableValues, environment: environment, unsetEnvironment: unsetEnvironment)
                found(check.notes, in: path)
                checks.append(check)
            } catch {
                failed = true
                found(error.errors, in: path)
            }
        }
        if failed || alwaysWrite || !findings.isEmpty { try write(findings, in: format) }
        if failed { throw ExitCode(ExitStatus.invalidInput) }
        return checks
    }

    /// Writes what a non-text format collected: a document, or GitHub's commands, on standard output.
    private static func write(_ findings: [PlanFinding], in format: PlanErrorFormat) throws {
        guard format != .text else { return }
        do throws(PlanErrorFormat.Failure) {
            let rendered = try format.render(findings)
            if !rendered.isEmpty { Console.output(rendered) }
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
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
