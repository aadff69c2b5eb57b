import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerResults

struct ResolvePlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Ask the plans' domain maps for the hosts their scenarios request and print the answers; nothing is sent to the hosts.",
        discussion: """
            Each (map, host) a scenario pins through is asked once, as the first scenario that requests it asks (ip_version, ca, resolver, connect_timeout), with the map's cache and fallback as in a run.
            Exit status: 0 every lookup answered; 1 a lookup failed (its row says why); 2 invalid command line or plan.
            """)

    @OptionGroup var planOptions: PlanOptions

    @Flag(help: "Print a JSON array of the answers (plan, map, host, client, labels, addresses, ttl, source, detail) instead of tables.")
    var json = false

    @Option(help: "Lookups in flight at once.")
    var jobs = 8

    @Option(name: .customLong("client"), help: ArgumentHelp(
        "Ask maps that ask as client populations as this one only (repeatable; names from the plans' clients:).", valueName: "NAME"))
    var clients: [String] = []

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs takes a number from 1 to 1024, got \(jobs)") }
    }

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        let unknown = PlanFiles.clientProblems(clients, in: plans)
        guard unknown.isEmpty else {
            unknown.forEach { Console.error("error: \($0)") }
            throw ExitCode(ExitStatus.invalidInput)
        }
        let redactor = Redactor(named: plans.flatMap(\.secrets))
        let answers: [MapAnswer]
        do {
            answers = try MapAnswers.ask(plans, jobs: jobs, redactor: redactor, onlyClients: clients.isEmpty ? nil : Set(clients))
        } catch {
            Console.error("error: \(redactor.redact(error.description))")
            throw ExitCode(ExitStatus.failed)
        }
        Console.output(json ? MapAnswerTable.json(answers) : MapAnswerTable.text(answers))
        throw ExitCode(answers.contains { $0.source == .error } ? ExitStatus.failed : ExitStatus.passed)
    }
}
