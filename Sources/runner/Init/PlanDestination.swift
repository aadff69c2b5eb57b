import Foundation
import RunnerCapture
import RunnerPlan

/// Where `runner init` writes: `-o PLAN` (and `PLAN.bodies/` beside it) or standard output.
/// Nothing is in place until the plan passes `runner check --no-env`: the plan is written to a
/// hidden file beside its place, checked there (its relative paths are the final ones), then
/// renamed over it.
struct PlanDestination {
    /// The plan's path; nil for standard output.
    let path: String?
    /// Where the plan's relative paths start: its folder, or the working directory.
    let directory: URL
    let force: Bool

    init(output: String?, force: Bool) throws {
        path = output
        self.force = force
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let output {
            let url = URL(fileURLWithPath: output, relativeTo: workingDirectory).standardizedFileURL
            directory = url.deletingLastPathComponent()
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue { throw InitFailure("\(output): is a folder; -o takes the plan file to write") }
                if !force { throw InitFailure("\(output): already exists; give --force to replace it (and its bodies folder)") }
            }
            if FileManager.default.fileExists(atPath: url.path + ".bodies"), !force {
                throw InitFailure("\(output).bodies: already exists; give --force to replace it")
            }
        } else {
            directory = workingDirectory
        }
    }

    /// `PLAN.bodies`, the folder for body files, relative to the plan; nil on standard output
    /// (bodies are written inline, as `body_base64`).
    var bodiesFolderName: String? {
        path.map { URL(fileURLWithPath: $0).lastPathComponent + ".bodies" }
    }

    /// What the last summary line says was done.
    var written: String { path.map { "wrote \($0):" } ?? "wrote the plan to standard output:" }

    /// `file` (as given on the command line) as the plan refers to it: relative to its folder.
    func relativePath(to file: String) -> String {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let target = URL(fileURLWithPath: file, relativeTo: workingDirectory).standardizedFileURL
        return RelativePath.from(directory, to: target)
    }

    /// Writes the body files and the plan, checked first (a scenario the loader refuses is left
    /// out, with a note in `draft`); on any failure nothing is left.
    func write(_ draft: inout PlanDraft, settings: DraftPlanSettings) throws {
        let fileManager = FileManager.default
        let staged = directory.appendingPathComponent(".runner-init-\(UUID().uuidString).yaml")
        var bodies: URL?
        if let folder = bodiesFolderName {
            let url = directory.appendingPathComponent(folder)
            // --force replaces the old plan's bodies too, even when the new one has none.
            if force, fileManager.fileExists(atPath: url.path) { try? fileManager.removeItem(at: url) }
            if !draft.bodyFiles.isEmpty { bodies = url }
        }
        func removeBodies() {
            if let bodies { try? fileManager.removeItem(at: bodies) }
        }
        do {
            // `-o plans/new.yaml` makes `plans/` as `curl --create-dirs` would.
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            if let bodies { try fileManager.createDirectory(at: bodies, withIntermediateDirectories: true) }
            for scenario in draft.scenarios {
                if case .file(let name, let bytes)? = scenario.body {
                    try bytes.write(to: directory.appendingPathComponent(name))
                }
            }
        } catch {
            removeBodies()
            throw InitFailure("cannot write in \(directory.path): \(error.localizedDescription)")
        }
        defer { try? fileManager.removeItem(at: staged) }
        let written = draft.bodyFiles
        let yaml: String
        do {
            yaml = try DraftCheck.settle(&draft, settings: settings, path: staged.path)
        } catch {
            removeBodies()
            let errors = error.errors.map { $0.rendered.replacingOccurrences(of: staged.path, with: path ?? "(the plan)") }
            throw InitFailure("the plan made from the captures does not pass runner check:\n" + errors.joined(separator: "\n"))
        }
        guard !draft.scenarios.isEmpty else {
            removeBodies()
            throw InitFailure("no request of the captures makes a scenario a plan can hold (\(draft.entriesRead) entries read; the notes above say why)")
        }
        for file in written where !draft.bodyFiles.contains(file) {
            try? fileManager.removeItem(at: directory.appendingPathComponent(file))
        }
        guard let path else {
            Console.write(yaml, to: STDOUT_FILENO)
            return
        }
        let target = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: fileManager.currentDirectoryPath)).standardizedFileURL
        guard rename(staged.path, target.path) == 0 else {
            removeBodies()
            throw InitFailure("\(path): cannot write it: \(String(cString: strerror(errno)))")
        }
    }
}

/// A path from one folder to a file, as a plan writes it (`../certs/ca.pem`).
enum RelativePath {
    static func from(_ directory: URL, to target: URL) -> String {
        let base = directory.standardizedFileURL.pathComponents
        let parts = target.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < parts.count, base[common] == parts[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        let path = (ups + parts[common...]).joined(separator: "/")
        return path.isEmpty ? "." : path
    }
}
