import ArgumentParser
import Foundation
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerState
import RunnerVocabulary

/// The options of a run that `run` and `serve` share: what runs, how, and which reports it writes.
struct RunSelection: ParsableArguments {
    @Option(name: [.customShort("j"), .long], help: "Transfers in flight at once.")
    var jobs: Int = 8

    @Option(help: ArgumentHelp("Write the JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the JSON report.", valueName: "FILE"))
    var json: String?

    @Option(help: ArgumentHelp("Write the HTML report: one self-contained page.", valueName: "FILE"))
    var html: String?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only scenarios tagged T (repeatable: any of them).", valueName: "T"))
    var tags: [String] = []

    @Option(help: ArgumentHelp("Only scenarios whose name contains TEXT.", valueName: "TEXT"))
    var filter: String?

    @Option(name: .customLong("client"), help: ArgumentHelp(
        "Ask maps that ask as client populations as this one only (repeatable; names from the plans' clients:); scenarios on those maps run only for the clients named.",
        valueName: "NAME"))
    var clients: [String] = []

    @Option(help: ArgumentHelp(
        "Remember what the HTTPDNS services returned in this SQLite file (created when missing), so that maps with retain: keep checking addresses apps still hold.",
        valueName: "FILE"))
    var state: String?

    @Option(help: ArgumentHelp("Run every scenario with strategy S.", valueName: "S"))
    var strategy: String?

    @Option(help: ArgumentHelp("Re-run a failing result up to N times, whatever the plan says.", valueName: "N"))
    var retries: Int?

    @Option(
        help: ArgumentHelp(
            "Run only part K of N (1-based) of the scenarios; a hash of plan and scenario name decides, so a scenario keeps its part when others are added. `runner merge` joins the parts' reports.",
            valueName: "K/N"),
        transform: RunSelection.shard(from:))
    var shard: Shard?

    @Flag(help: "Fail a result on what its apps' trust rules warn of (app:): pins expired or expiring, pins without a backup key, pins IP direct leaves off.")
    var strict = false

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs takes a number from 1 to 1024, got \(jobs)") }
        if let retries, !(0...TransferSettings.maxRetries).contains(retries) {
            throw ValidationError("--retries takes a number from 0 to \(TransferSettings.maxRetries), got \(retries)")
        }
        if let strategy, StrategyKind(rawValue: strategy) == nil {
            let names = StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--strategy takes one of \(names), got '\(strategy)'")
        }
        try Self.checkReportPaths(reportPaths)
    }

    /// `--shard K/N`, or an error that says what it takes.
    static func shard(from text: String) throws -> Shard {
        guard let shard = Shard(notation: text) else {
            throw ValidationError("--shard takes K/N, a part K of N parts with 1 ≤ K ≤ N ≤ \(Shard.maxCount) (e.g. 2/4), got '\(text)'")
        }
        return shard
    }

    /// A report path whose folder is missing (or is not a folder) is refused before anything
    /// runs, and so is standard output named by more than one report.
    static func checkReportPaths(_ paths: [String]) throws {
        for path in paths {
            if let problem = ReportTarget.folderProblem(of: path) {
                throw ValidationError(ReportWriteError(path: path, reason: problem).description)
            }
        }
        let toStandardOutput = paths.filter(ReportTarget.namesStandardOutput)
        if toStandardOutput.count > 1 {
            throw ValidationError(
                "only one report can go to standard output; \(toStandardOutput.map { "'\($0)'" }.joined(separator: " and ")) both name it")
        }
    }

    /// The state file given with `--state`, opened (created when missing); without it, a
    /// memory for the process's life when `inMemory`, else none. Exit 2 with its name and the
    /// cause when it cannot be used.
    func addressMemory(inMemory: Bool) throws -> AddressMemory? {
        do throws(StateStoreError) {
            if let state { return try AddressMemory.open(path: state) }
            return inMemory ? try AddressMemory.inMemory() : nil
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    /// The maps with `retain:`, by plan, when there is no memory to retain with: what the
    /// console says once.
    static func unremembered(_ plans: [Plan]) -> [String] {
        plans.flatMap { plan in
            plan.domainMaps.compactMap { map -> String? in
                guard case .httpdns(let service) = map.source, service.retain != nil else { return nil }
                return "'\(map.name)'"
            }
        }
    }

    /// The report files asked for.
    var reportPaths: [String] { [junit, json, html].compactMap { $0 } }

    /// The engine's options for these choices.
    var runOptions: RunOptions {
        var options = RunOptions()
        options.jobs = jobs
        options.tags = tags
        options.filter = filter
        options.strategyOverride = strategy.flatMap(StrategyKind.init(rawValue:))
        options.retriesOverride = retries
        options.shard = shard
        options.onlyClients = clients.isEmpty ? nil : Set(clients)
        options.strictAppPolicy = strict
        return options
    }

    /// Why `plans` cannot run with these choices (a `--strategy` that cannot carry a scenario's
    /// scheme, a `--tag`/`--filter`/`--client` that selects nothing, a `--client` no plan names),
    /// as error lines; empty when they can.
    func problems(with plans: [Plan]) -> [String] {
        let options = runOptions
        let populations = PlanFiles.clientProblems(clients, in: plans)
        guard populations.isEmpty else { return populations }
        let conflicts = options.strategyConflicts(in: plans)
        guard conflicts.isEmpty else { return conflicts }
        // Judged before `--shard`: a shard that happens to hold none of a small plan's scenarios
        // runs nothing and passes; a `--tag` that matches nothing is a mistake.
        guard plans.contains(where: { plan in plan.scenarios.contains { options.matches($0, of: plan) } }) else {
            return [clients.isEmpty ? "no scenario matches the --tag/--filter given" : "no scenario matches the --tag/--filter/--client given"]
        }
        return []
    }
}
