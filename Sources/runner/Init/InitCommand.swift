import ArgumentParser
import Foundation
import RunnerCapture
import RunnerPlan
import RunnerVocabulary

/// `runner init --har`: a plan from the app's own traffic, as a capture tool exported it.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a plan from captures of an app's traffic (HAR from Charles, Proxyman, mitmproxy, Chrome, Firefox, Safari).",
        discussion: """
            One scenario per distinct request (method, URL and body), in capture order: identical repeats merged, a redirect chain the app followed folded into one scenario, failed entries left out. Headers as the app sent them, minus what the transport writes. Every secret (authorization, cookies, fields named token, key, password, session, sign…, any JWT) becomes ${secret:HOST_FIELD}; a value an answer carried and a later request sent becomes a capture and ${capture:NAME}, with after:. Expectations that hold on the next run: the status, the media type, a JSON answer's top-level keys. The recorded server addresses become the static map 'captured'.
            The summary goes to standard error: what was merged, folded and dropped, and a line 'secret NAME: …' per secret to set.
            Exit status: 0 the plan was written; 2 invalid command line, a capture that cannot be read (FILE: entry N: …), or an existing PLAN without --force: no plan written.
            """)

    @Option(name: .customLong("har"), parsing: .upToNextOption, help: ArgumentHelp("HAR captures, read in the order given.", valueName: "FILE"))
    var captures: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the plan here (body files in PLAN.bodies/) instead of standard output.", valueName: "PLAN"))
    var output: String?

    @Flag(help: "Replace an existing PLAN and its bodies folder.")
    var force = false

    @Option(help: ArgumentHelp("Only requests to hosts matching this pattern (* and ?; repeatable).", valueName: "PATTERN"))
    var host: [String] = []

    @Option(help: ArgumentHelp("Leave out requests whose host matches (or whose URL matches, when the pattern has a /; repeatable).", valueName: "PATTERN"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Use this domain map of --domains FILE (say, the team's HTTPDNS map) instead of the recorded addresses.", valueName: "NAME"))
    var map: String?

    @Option(help: ArgumentHelp("The team's plan holding the map of --map and the apps of --app; they are copied into the new plan.", valueName: "FILE"))
    var domains: String?

    @Option(help: ArgumentHelp("The strategy for every scenario (default auto).", valueName: "S"))
    var strategy: StrategyKind?

    @Option(help: ArgumentHelp("Check every result as this app of --domains FILE trusts (repeatable).", valueName: "NAME"))
    var app: [String] = []

    @Option(help: ArgumentHelp("Extra trust anchors (PEM) for the plan's defaults, as for a staging server's private CA.", valueName: "FILE"))
    var ca: String?

    func validate() throws {
        if captures.isEmpty { throw ValidationError("give the captures to read: --har FILE…") }
        if map != nil, domains == nil { throw ValidationError("--map NAME needs --domains FILE, the plan that defines the map") }
        if !app.isEmpty, domains == nil { throw ValidationError("--app NAME needs --domains FILE, the plan that defines the app") }
        if domains != nil, map == nil, app.isEmpty { throw ValidationError("--domains FILE is read for --map or --app; give one of them") }
        if force, output == nil { throw ValidationError("--force replaces the file of -o PLAN; give -o PLAN") }
    }

    func run() throws {
        do {
            try writePlan()
        } catch let failure as InitFailure {
            Console.error("error: \(failure)")
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    private func writePlan() throws {
        var inputs: [CaptureDrafter.Input] = []
        for path in captures {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                inputs.append(CaptureDrafter.Input(path: path, capture: try HARCapture.read(data, path: path)))
            } catch let error as HARReadError {
                throw InitFailure(error.description)
            } catch {
                throw InitFailure("\(path): cannot read the file: \(error.localizedDescription)")
            }
        }
        let destination = try PlanDestination(output: output, force: force)
        var draft = CaptureDrafter.draft(
            inputs, options: CaptureDraftOptions(hosts: host, excluded: exclude, mapName: map, bodiesFolder: destination.bodiesFolderName))
        let settings = try planSettings(inputs: inputs, destination: destination)
        guard !draft.scenarios.isEmpty else {
            for note in draft.notes { Console.error("  \(note)") }
            throw InitFailure("no request of the captures makes a scenario (\(draft.entriesRead) entries read; the notes above say why)")
        }
        do {
            try destination.write(&draft, settings: settings)
        } catch {
            for note in draft.notes { Console.error("  \(note)") }
            throw error
        }
        for note in draft.notes { Console.error("  \(note)") }
        for secret in draft.secrets {
            Console.error("secret \(secret.name): \(secret.uses.joined(separator: "; "))\(secret.form.map { " (\($0))" } ?? "")")
        }
        let files = draft.bodyFiles.count
        Console.error(
            "runner init: \(destination.written) \(draft.scenarios.count) scenarios from \(draft.entriesRead) entries"
                + (files > 0 ? ", \(files) body file\(files == 1 ? "" : "s") in \(destination.bodiesFolderName ?? "")/" : ""))
    }

    private func planSettings(inputs: [CaptureDrafter.Input], destination: PlanDestination) throws -> DraftPlanSettings {
        let sources = inputs.map { input in
            "\(input.path)" + (input.capture.creator.map { " (\($0))" } ?? "") + ", \(input.capture.entries.count) entries"
        }
        var settings = DraftPlanSettings(
            strategy: strategy.map(\.rawValue), apps: app,
            ca: ca.map { destination.relativePath(to: $0) },
            header: ["Made by runner init --har from " + sources.joined(separator: "; ")])
        if let domains {
            let team = try TeamPlanExcerpt(path: domains, planDirectory: destination.directory)
            if let map {
                let copied = try team.map(named: map)
                settings.copiedDomains = copied.maps
                settings.copiedClients = copied.clients
            }
            settings.copiedApps = try app.map { (name: $0, value: try team.app(named: $0)) }
        }
        return settings
    }
}

/// A refusal of `runner init`: its message on standard error, exit 2, nothing written.
struct InitFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
