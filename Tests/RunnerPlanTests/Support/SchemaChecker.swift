import Foundation
import PlanFixtures

/// check-jsonschema run on plan files against docs/plan.schema.json: what it says of each file.
struct SchemaChecker {
    /// Not installed: the tests fail with this (they never skip).
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "check-jsonschema is not installed at \(Repository.checkJSONSchema.path). `make deps` (which `make test` "
                + "runs) installs it from PyPI into .tools/ with tools/install-check-jsonschema.sh; or run that script."
        }
    }

    /// The tool failed in a way that is not a verdict on the files (the schema did not load, say).
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Each file the tool refused, with its messages (`PATH-IN-PLAN: MESSAGE`); files it
    /// accepted are absent.
    typealias Problems = [String: [String]]

    /// Checks `paths` in one run of the tool (it starts in about a second, so files go in one batch).
    static func check(_ paths: [String]) async throws -> Problems {
        guard FileManager.default.isExecutableFile(atPath: Repository.checkJSONSchema.path) else { throw Missing() }
        let arguments = ["--output-format", "json", "--schemafile", Repository.planSchema.path] + paths
        let output = try await offPool {
            try ChildProcess.run(Repository.checkJSONSchema, arguments, deadline: .seconds(120))
        }
        let stdout = String(decoding: output.stdout, as: UTF8.self)
        let stderr = String(decoding: output.stderr, as: UTF8.self)
        // 0: every file passed; 1: a verdict on some file. Anything else is the tool's own trouble.
        guard output.termination == .exited(0) || output.termination == .exited(1),
              let report = try? JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        else {
            throw Failed(description: "check-jsonschema \(output.termination): \(stdout)\(stderr)")
        }
        var problems: Problems = [:]
        for error in report["errors"] as? [[String: Any]] ?? [] {
            let file = error["filename"] as? String ?? "?"
            problems[file, default: []].append("\(error["path"] as? String ?? "$"): \(error["message"] as? String ?? "")")
        }
        for error in report["parse_errors"] as? [[String: Any]] ?? [] {
            let file = error["filename"] as? String ?? "?"
            problems[file, default: []].append("not YAML: \(error["message"] as? String ?? "")")
        }
        guard output.termination == .exited(0) || !problems.isEmpty else {
            throw Failed(description: "check-jsonschema failed but named no file: \(stdout)\(stderr)")
        }
        return problems
    }
}
