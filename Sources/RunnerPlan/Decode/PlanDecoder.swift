import Foundation
import RunnerVocabulary

/// Turns a parsed document into a `Plan`, collecting every error it finds on the way.
///
/// One instance per load. Each step reports what is wrong and returns nil for that part,
/// so the rest of the plan is still checked.
final class PlanDecoder {
    let file: String
    /// The plan's directory as the path was given ("" for the current directory).
    let planDirectory: String
    let environment: [String: String]
    /// What a `${env:…}` or `${secret:…}` whose variable is not in `environment` is.
    let unsetEnvironment: UnsetEnvironment
    private(set) var errors: [PlanError] = []
    /// The errors reported so far, to report each once.
    private var reported: Set<PlanError> = []
    /// Errors at values an unset variable made (`UnsetEnvironment.unknown`), as notes: in file
    /// order once `PlanLoader` has sorted them.
    private(set) var notes: [PlanError] = []
    /// The scalars whose value an unset variable made, with the variables: an error reported
    /// at one is a note. Empty unless `unsetEnvironment` is `.unknown`.
    var unknownValues: [YAMLMark: [EnvironmentVariableUse]] = [:]
    /// Each environment variable the plan reads, first use first (a name read both ways counts
    /// as a secret).
    private(set) var environmentUses: [EnvironmentVariableUse] = []
    /// Scenarios with no error that could not be built: a value an unset variable makes is
    /// missing (`UnsetEnvironment.unknown`).
    var scenariosNotBuilt = 0
    private var environmentUseIndex: [String: Int] = [:]

    /// `vars:` merged with `--var`, already substituted.
    var variables: [String: ResolvedVariable] = [:]
    /// Variables whose own value did not resolve (already reported).
    var failedVariables: Set<String> = []
    /// Secret values in first-use order (and their values as a set, to add each once).
    private(set) var secrets: [SecretValue] = []
    private var secretSet: Set<String> = []
    /// The plan's user populations (`clients:`), for the maps that ask as them and the rules
    /// that select them.
    var clientPopulations: [ClientPopulation] = []
    var clientNames: [String] { clientPopulations.map(\.name) }
    /// The plan's apps (`apps:`), for the scenarios that are checked as them (`app:`).
    var apps: [AppDefinition] = []
    /// Every app name `apps:` writes, those with errors too: a scenario naming one of those is
    /// not told it is unknown.
    var appNamesWritten: [String] = []
    /// The maps that are static lists: `expect.edges` may bound addresses by them.
    var staticMapNames: Set<String> = []
    /// The populations each map asking as clients is asked as, by map name: what a scenario's
    /// `expect.edges` can check.
    var clientsAskedBy: [String: [ClientPopulation]] = [:]
    /// The maps that decoded and ask as this machine (`system` among them): `expect.edges` on
    /// them checks nobody. A map that did not decode is in neither (its errors are reported).
    var mapsAskingAsThisMachine: Set<String> = [systemDomainMapName]
    /// Declared domain map names (plus `system`), for lookups and suggestions.
    var domainMapNames: [String] = []
    var domainMapNameSet: Set<String> = [systemDomainMapName]
    /// The maps whose answers may come from the machine's resolver (`resolver:` applies there).
    var mapsReachingSystemResolver: Set<String> = [systemDomainMapName]
    /// Where each map's `sdk.rank` is, for the check of how many hosts its SDK ranks.
    var rankMarks: [String: YAMLMark] = [:]

    /// Every scenario name the plan writes, those of scenarios with errors too, by where it is
    /// written first: an `after` naming one of those is not unknown (its own errors are
    /// reported). Taken over from the scenario list's duplicate check once it is read, not
    /// hashed a second time per scenario.
    var scenarioNamesWritten: [String: YAMLMark] = [:]
    /// While a scenario's request is decoded: the `${capture:NAME}` references met, in order
    /// (nil elsewhere, where one is an error).
    var captureCollector: [PendingCaptureUse]?

    /// Patterns already compiled: nil when fine, else why not. Plans repeat patterns.
    var regexVerdicts: [String: String?] = [:]
    /// `expect.body.json` paths already parsed, by text: plans repeat paths, and parsing one
    /// cost more than a lookup.
    var jsonPaths: [String: Result<JSONPath, JSONPathParser.Problem>] = [:]
    /// Pins already decoded (`sha256/BASE64` → the digest's bytes).
    var pinDigests: [String: [UInt8]] = [:]
    /// Files already checked, by resolved path: nil when fine, else why not.
    var fileVerdicts: [String: String?] = [:]
    private var workingDirectory: String?

    init(file: String, environment: [String: String], unsetEnvironment: UnsetEnvironment = .error) {
        self.file = file
        self.environment = environment
        self.unsetEnvironment = unsetEnvironment
        if let slash = file.lastIndex(of: "/") {
            let directory = String(file[..<slash])
            planDirectory = directory.isEmpty ? "/" : directory
        } else {
            planDirectory = ""
        }
    }

    /// A decoder for one piece of the scenario list, to run on another thread: it starts from
    /// what this one has learnt of the top level (variables, domain maps, secrets so far) and
    /// shares nothing mutable with it.
    func pieceDecoder() -> PlanDecoder {
        let piece = PlanDecoder(file: file, environment: environment, unsetEnvironment: unsetEnvironment)
        piece.variables = variables
        piece.failedVariables = failedVariables
        piece.secrets = secrets
        piece.secretSet = secretSet
        piece.domainMapNames = domainMapNames
        piece.domainMapNameSet = domainMapNameSet
        piece.mapsReachingSystemResolver = mapsReachingSystemResolver
        piece.clientPopulations = clientPopulations
        piece.apps = apps
        piece.appNamesWritten = appNamesWritten
        piece.staticMapNames = staticMapNames
        piece.clientsAskedBy = clientsAskedBy
        piece.mapsAskingAsThisMachine = mapsAskingAsThisMachine
        piece.regexVerdicts = regexVerdicts
        piece.jsonPaths = jsonPaths
        piece.fileVerdicts = fileVerdicts
        piece.workingDirectory = workingDirectory
        return piece
    }

    /// Takes the secrets a piece decoder recorded, in its order, after this one's: the order
    /// one decoder reading every piece in turn would have recorded them in.
    func adoptSecrets(of piece: PlanDecoder) {
        for secret in piece.secrets { recordSecret(secret) }
    }

    // MARK: Errors

    func report(at mark: YAMLMark, _ message: String) {
        report(at: location(mark), message)
    }

    /// For checks made once the plan's values are built (their marks are locations by then).
    /// A node an alias (`*name`) repeats is decoded again: its error is reported once.
    func report(at location: SourceLocation, _ message: String) {
        if !unknownValues.isEmpty, let unset = unknownValues[YAMLMark(line: location.line, column: location.column)] {
            let names = unset.map(\.description).joined(separator: ", ")
            let note = PlanError(
                location: location, message: "not checked without \(names), which is not read: taken as empty, \(message)",
                severity: .note)
            guard reported.insert(note).inserted else { return }
            notes.append(note)
            return
        }
        report(PlanError(location: location, message: message))
    }

    /// An error found in another file the plan names (an app's trust file), with its own line.
    func report(_ error: PlanError) {
        guard reported.insert(error).inserted else { return }
        errors.append(error)
    }

    func location(_ mark: YAMLMark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// What a node is, for `got …`: a kind for collections, the (masked) value for scalars.
    func describe(_ node: YAMLNode) -> String {
        guard case .scalar(let value, let style) = node.content else { return node.kindDescription }
        let raw = Text(value: value, mark: node.mark, style: style, forcedString: Text.isStringTag(node.tag))
        if raw.isNull, value.isEmpty { return raw.quoted }
        // Show the substituted value when it resolves (masked), else the text as written.
        if value.containsByte(UInt8(ascii: "$")), let resolved = quietlySubstitute(value) {
            return "'\(Text.shorten(resolved))'"
        }
        return raw.quoted
    }

    /// Puts the notes in order (`PlanLoader.finish`), once decoding is over.
    func sortNotes(_ finish: ([PlanError]) -> [PlanError]) {
        if !notes.isEmpty { notes = finish(notes) }
    }

    // MARK: Environment and secrets

    func recordEnvironmentUse(_ use: EnvironmentVariableUse) {
        guard let index = environmentUseIndex[use.name] else {
            environmentUseIndex[use.name] = environmentUses.count
            environmentUses.append(use)
            return
        }
        if use.isSecret { environmentUses[index].isSecret = true }
    }

    func recordSecret(_ secret: SecretValue) {
        guard !secret.value.isEmpty, secretSet.insert(secret.value).inserted else { return }
        secrets.append(secret)
    }

    // MARK: Files

    /// Resolves `text` against the plan's directory and checks it is a readable regular file.
    /// Returns the absolute path; nil (reported at the value) when the file is unusable.
    func planRelativeFile(_ text: Text, what: String, site: @autoclosure () -> Site) -> String? {
        let written = text.value
        guard !written.isEmpty else {
            report(at: text.mark, "expected a file path for \(site()), got an empty value")
            return nil
        }
        // What goes before the written path: nothing when it is absolute or the plan is here.
        let prefix: String
        if written.hasPrefix("/") || planDirectory.isEmpty {
            prefix = ""
        } else if planDirectory == "/" {
            prefix = "/"
        } else {
            prefix = planDirectory + "/"
        }
        let display = prefix + written
        let absolute = display.hasPrefix("/") ? display : currentDirectory() + "/" + display
        let verdict: String?
        if let cached = fileVerdicts[absolute] {
            verdict = cached
        } else {
            verdict = Self.checkReadableFile(absolute)
            fileVerdicts[absolute] = verdict
        }
        if let verdict {
            // The masked text: the path may hold a `${secret:…}` value (found by fuzzing).
            let lookedFor = prefix.isEmpty ? "" : " (looked for '\(prefix + text.shown)')"
            report(at: text.mark, "\(what) '\(text.shown)' \(verdict)\(lookedFor)")
            return nil
        }
        return absolute
    }

    /// Resolves `text` against the plan's directory and checks it is a folder that can be read.
    /// Returns the absolute path; nil (reported at the value) when it is not one.
    func planRelativeDirectory(_ text: Text, what: String, site: @autoclosure () -> Site) -> String? {
        guard !text.value.isEmpty else {
            report(at: text.mark, "expected a folder for \(site()), got an empty value")
            return nil
        }
        let shown = text.value.hasPrefix("/") || planDirectory.isEmpty ? text.value : planDirectory + "/" + text.value
        let absolute = shown.hasPrefix("/") ? shown : currentDirectory() + "/" + shown
        var info = stat()
        guard stat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access(absolute, R_OK | X_OK) == 0 else {
            report(at: text.mark, "\(what) '\(text.shown)' is not a folder that can be read (looked for '\(shown)')")
            return nil
        }
        return absolute
    }

    /// An absolute path as messages show it: relative to the current directory when under it.
    func shownPath(_ absolute: String) -> String {
        let here = currentDirectory() + "/"
        return absolute.hasPrefix(here) ? String(absolute.dropFirst(here.count)) : absolute
    }

    private static func checkReadableFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? "does not exist" : "cannot be read"
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return "is not a regular file" }
        guard access(path, R_OK) == 0 else { return "is not readable" }
        return nil
    }

    private func currentDirectory() -> String {
        if let workingDirectory { return workingDirectory }
        let directory = FileManager.default.currentDirectoryPath
        workingDirectory = directory
        return directory
    }
}
