import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerResults
import RunnerVocabulary

/// `runner app`: what an app's own trust files (`apps:`) make its HTTP stack apply.
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Show the trust rules each app of the plans (apps:) applies, per host and strategy.",
        subcommands: [AppShow.self])
}

struct AppShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the rules each app applies to each host its scenarios request, per strategy and address; no request is sent to the hosts.",
        discussion: """
            Under header-only and trust-override an app's stack looks its rules up by the IP the URL holds: a row per address the scenario's map answers (HTTPDNS maps are asked as runner resolve asks them). Under sni-resolve and system it looks them up by the name: one row, address null.
            Exit status: 0; 1 a map's lookup failed (the rows for its addresses are missing; runner resolve says why); 2 invalid command line or plan.
            """)

    @OptionGroup var planOptions: PlanOptions

    @Option(help: ArgumentHelp("Only this app (a name under apps:).", valueName: "NAME"))
    var app: String?

    @Option(help: ArgumentHelp("Only scenarios requesting this host.", valueName: "H"))
    var host: String?

    @Option(help: ArgumentHelp("Only this strategy (header-only, trust-override, sni-resolve, system).", valueName: "S"))
    var strategy: StrategyKind?

    @Flag(help: "Print a JSON array (app, host, strategy, address, keyed_on, platform, source, cleartext, anchors, pins, pins_expire, pins_enforced, why_not, tls_min, forward_secrecy).")
    var json = false

    func validate() throws {
        if strategy == .auto { throw ValidationError("--strategy takes header-only, trust-override, sni-resolve or system, not auto") }
    }

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        if let app, !plans.contains(where: { $0.apps.contains { $0.name == app } }) {
            let names = plans.flatMap { $0.apps.map(\.name) }
            let hint = Suggestion.closest(to: app, among: names).map { "; did you mean '\($0)'?" }
                ?? (names.isEmpty ? "; the plans name no apps" : "; the plans' apps are \(names.map { "'\($0)'" }.joined(separator: ", "))")
            Console.error("error: --app '\(app)' is not an app of the plans\(hint)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let selection = AppPolicyRows.Selection(app: app, host: host, strategy: strategy)
        let redactor = Redactor(named: plans.flatMap(\.secrets))
        var answers: [MapAnswer] = []
        if AppPolicyRows.needsAddresses(plans, selection: selection) {
            do {
                answers = try MapAnswers.ask(plans, jobs: 8, redactor: redactor)
            } catch {
                Console.error("error: \(redactor.redact(error.description))")
                throw ExitCode(ExitStatus.failed)
            }
            for failed in answers where failed.source == .error {
                Console.error("error: \(failed.map) has no address for \(failed.host): \(redactor.redact(failed.detail))")
            }
        }
        let rows = AppPolicyRows.rows(plans, answers: answers, selection: selection, now: Date())
        Console.output(json ? AppPolicyTable.json(rows) : AppPolicyTable.text(rows))
        throw ExitCode(answers.contains { $0.source == .error } ? ExitStatus.failed : ExitStatus.passed)
    }
}
