import Foundation
import LabTestSupport
import PlanFixtures
import Testing

/// Issue 43: plans checked in a pull request's CI job, where the secrets are absent
/// (`runner check --no-env`), their errors written where reviewers look (`--format`), on the
/// built runner with an empty environment, as such a job runs it.
@Suite("runner check for review: --no-env and --format", .timeLimit(.minutes(3)))
struct PlanReviewCLITests {
    /// The runner with exactly `environment` (nothing inherited), from the repository's root.
    func runner(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutput {
        let executable = PackageExecutable.url("runner")
        let output = try await offPool {
            try ChildProcess.run(executable, arguments, environment: environment, directory: Repository.root, deadline: .seconds(60))
        }
        return ProcessOutput(
            status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
            stderr: String(decoding: output.stderr, as: UTF8.self))
    }

    static let prodNeeds =
        "plans/prod.yaml: needs: ALI_HTTPDNS_SECRET (secret), DNSPOD_AES_KEY (secret), PROBE_PASSWORD (secret), VOLC_HTTPDNS_SECRET (secret)"

    /// A copy of plans/prod.yaml with one real mistake (`stauts:` for `status:`), and its line.
    static func brokenProd(in workspace: PlanWorkspace) throws -> (path: String, line: Int, column: Int) {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("plans/prod.yaml"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("      status: 200") })
        lines[index] = lines[index].replacingOccurrences(of: "status:", with: "stauts:")
        let path = try workspace.write("prod.yaml", lines.joined(separator: "\n"))
        return (path, index + 1, 7)
    }

    // MARK: --no-env

    @Test("--no-env passes plans/prod.yaml with no environment at all, listing the variables it reads")
    func noEnvPassesProd() async throws {
        let output = try await runner(["check", "--no-env", "plans/prod.yaml"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "plans/prod.yaml: ok (10 scenarios)\n\(Self.prodNeeds)\n")
        // The values the secrets decide are noted, not errors: DNSPod's key length, the empty secrets.
        let lines = output.stderr.split(separator: "\n").filter { $0.hasPrefix("plans/prod.yaml:") }
        #expect(!lines.isEmpty, "\(output.stderr)")
        #expect(lines.allSatisfy { $0.contains(": note: not checked without ${secret:") }, "\(output.stderr)")
        #expect(!output.stderr.contains(": error: "), "\(output.stderr)")
    }

    /// It reads no environment: the same output with the secrets set (a job that has them gets
    /// the same verdict as one that does not).
    @Test("--no-env reads no environment: the secrets set change nothing")
    func noEnvIgnoresTheEnvironment() async throws {
        let without = try await runner(["check", "--no-env", "plans/prod.yaml"])
        let with = try await runner(["check", "--no-env", "plans/prod.yaml"], environment: ProdPlanCheckTests.secrets)
        #expect(with.status == 0)
        #expect(with.stdout == without.stdout)
        #expect(with.stderr == without.stderr)
    }

    /// Without --no-env the same empty environment fails as it always has (the behaviour is kept).
    @Test("without --no-env an empty environment is still four errors")
    func withoutNoEnvNothingChanges() async throws {
        let output = try await runner(["check", "plans/prod.yaml"])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr.components(separatedBy: ": error: environment variable '").count - 1 == 4, "\(output.stderr)")
        #expect(!output.stderr.contains("note:"))
    }

    @Test("--no-env still reports a real mistake, at its line, and exits 2")
    func noEnvReportsARealMistake() async throws {
        let workspace = try PlanWorkspace()
        let broken = try Self.brokenProd(in: workspace)
        let output = try await runner(["check", "--no-env", broken.path])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        let errors = output.stderr.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
        #expect(errors == [
            "\(broken.path):\(broken.line):\(broken.column): error: unknown key 'stauts' in expect of scenario "
                + "'API health, as the Android app connects'; did you mean 'status'?"
        ], "\(output.stderr)")
        #expect(!output.stdout.contains("needs:"))
    }

    /// A variable made of an environment value: what uses it is noted, where it is used; the
    /// syntax of a reference is still checked.
    @Test("--no-env: a var made of ${env:…} is noted where a value it makes is checked; a bad reference is an error")
    func noEnvVariables() async throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write(
            "derived.yaml",
            """
            version: 1
            vars:
              host: "${env:API_HOST}"
            scenarios:
              - name: derived
                request: {url: "https://${host}/health"}
                timeout: ${env:TIMEOUT}

            """)
        let output = try await runner(["check", "--no-env", path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "\(path): ok (1 scenario)\n\(path): needs: API_HOST (env), TIMEOUT (env)\n")
        let notes = output.stderr.split(separator: "\n").filter { $0.contains(": note: ") }
        #expect(notes.count == 2, "\(output.stderr)")
        #expect(notes.first?.hasPrefix("\(path):6:20: note: not checked without ${env:API_HOST}, which is not read") == true, "\(output.stderr)")
        #expect(notes.last?.hasPrefix("\(path):7:14: note: not checked without ${env:TIMEOUT}, which is not read") == true, "\(output.stderr)")

        let bad = try workspace.write("bad.yaml", "version: 1\nscenarios:\n  - {name: a, request: {url: \"https://${env:}/\"}}\n")
        let refused = try await runner(["check", "--no-env", bad])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("\(bad):3:30: error: missing environment variable name in '${env:}'"), "\(refused.stderr)")
    }

    // MARK: --format

    @Test("--format json: a list of {file, line, column, end_line, end_column, severity, message, key}")
    func jsonFormat() async throws {
        let workspace = try PlanWorkspace()
        let broken = try Self.brokenProd(in: workspace)
        let output = try await runner(["check", "--no-env", "--format", "json", broken.path])
        #expect(output.status == 2)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]], "\(output.stdout)")
        let fields: Set<String> = ["file", "line", "column", "end_line", "end_column", "severity", "message", "key"]
        for item in list {
            #expect(Set(item.keys) == fields, "\(item)")
            #expect(item["file"] as? String == broken.path)
            #expect(["error", "note"].contains(item["severity"] as? String))
            let line = try #require(item["line"] as? Int), endLine = try #require(item["end_line"] as? Int)
            let column = try #require(item["column"] as? Int), endColumn = try #require(item["end_column"] as? Int)
            #expect(endLine > line || (endLine == line && endColumn >= column), "\(item)")
        }
        let errors = list.filter { $0["severity"] as? String == "error" }
        try #require(errors.count == 1, "\(list)")
        #expect(errors[0]["line"] as? Int == broken.line)
        #expect(errors[0]["column"] as? Int == broken.column)
        // `stauts` underlined: its last character is 5 columns on.
        #expect(errors[0]["end_line"] as? Int == broken.line)
        #expect(errors[0]["end_column"] as? Int == broken.column + 5)
        #expect(errors[0]["key"] as? String == "scenarios[0].expect.stauts")
        #expect((errors[0]["message"] as? String)?.hasPrefix("unknown key 'stauts' in expect of scenario") == true)
        #expect(list.contains { $0["severity"] as? String == "note" })
        // The document holds standard output alone.
        #expect(output.stderr.split(separator: "\n").allSatisfy { !$0.contains(": error: ") })
    }

    @Test("--format json on a valid plan is an empty list, the ok line on standard error")
    func jsonFormatValid() async throws {
        let output = try await runner(["check", "--format", "json", "plans/prod.yaml"], environment: ProdPlanCheckTests.secrets)
        #expect(output.status == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [Any] != nil, "\(output.stdout)")
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(output.stderr == "plans/prod.yaml: ok (10 scenarios)\n")
    }

    /// GitHub's workflow command grammar (docs.github.com, "Workflow commands for GitHub
    /// Actions": `::error file={name},line={line},endLine={endLine},title={title}::{message}`,
    /// with col and endColumn), each property and the message escaped as its toolkit does.
    static var githubCommand: Regex<(Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring)> {
        #/::(error|warning|notice) file=([^,:]+),line=([0-9]+),col=([0-9]+),endLine=([0-9]+),endColumn=([0-9]+),title=([^,:]*)::(.*)/#
    }

    @Test("--format github: one workflow command per finding, exactly GitHub's grammar, properly escaped")
    func githubFormat() async throws {
        let workspace = try PlanWorkspace()
        let broken = try Self.brokenProd(in: workspace)
        let output = try await runner(["check", "--no-env", "--format", "github", broken.path])
        #expect(output.status == 2)
        let commands = output.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
        try #require(!commands.isEmpty, "\(output.stdout)")
        var errors: [String] = []
        for command in commands {
            let match = try #require(command.wholeMatch(of: Self.githubCommand), "\(command)")
            let (kind, file, message) = (match.output.1, match.output.2, match.output.8)
            #expect(String(file) == broken.path)
            // Unescaped CR or LF would end the command early.
            #expect(!message.contains("\r") && !message.contains("\n"))
            if kind == "error" { errors.append(command) }
            #expect(kind == "error" || kind == "notice")
        }
        #expect(errors == [
            "::error file=\(broken.path),line=\(broken.line),col=\(broken.column),endLine=\(broken.line),"
                + "endColumn=\(broken.column + 5),title=runner%3A scenarios[0].expect.stauts::unknown key 'stauts' in expect of "
                + "scenario 'API health, as the Android app connects'; did you mean 'status'?"
        ])
    }

    @Test("--format github escapes %, CR, LF in messages and : , in properties")
    func githubEscaping() async throws {
        let workspace = try PlanWorkspace()
        // A scenario name with `%` and `,` and a control character quoted back in the message, a
        // key with `:` and `,` in the key path (the title).
        let path = try workspace.write(
            "esc.yaml",
            "version: 1\nscenarios:\n  - name: \"100%, a\\nb\"\n    request: {url: 'https://api.example.com/'}\n    expect: {\"a:b,c\": 1}\n")
        let output = try await runner(["check", "--format", "github", path])
        #expect(output.status == 2)
        let command = try #require(output.stdout.split(separator: "\n").first.map(String.init))
        #expect(command.wholeMatch(of: Self.githubCommand) != nil, "\(command)")
        #expect(command.contains(#"title=runner%3A scenarios[0].expect["a%3Ab%2Cc"]::"#), "\(command)")
        #expect(command.contains("scenario '100%25, a\\u{A}b'"), "\(command)")
    }

    /// GitLab's Code Quality report (docs.gitlab.com, "Code Quality": "Implement a custom tool"),
    /// its required fields as a JSON Schema, validated by check-jsonschema.
    static let gitlabSchema = """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "array",
          "items": {
            "type": "object",
            "required": ["description", "check_name", "fingerprint", "severity", "location"],
            "properties": {
              "description": {"type": "string", "minLength": 1},
              "check_name": {"type": "string", "minLength": 1},
              "fingerprint": {"type": "string", "minLength": 1},
              "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
              "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                  "path": {"type": "string", "minLength": 1, "not": {"pattern": "^(/|\\\\./)"}},
                  "lines": {"type": "object", "required": ["begin"], "properties": {"begin": {"type": "integer", "minimum": 1}}}
                }
              }
            }
          }
        }
        """

    @Test("--format gitlab: a Code Quality report GitLab's documented schema accepts, fingerprints unique and stable")
    func gitlabFormat() async throws {
        let workspace = try PlanWorkspace()
        let broken = try Self.brokenProd(in: workspace)
        // Named as a job in the repository's root names it: GitLab wants the path from there.
        _ = try workspace.write("plans/prod.yaml", try String(contentsOfFile: broken.path, encoding: .utf8))
        let directory = URL(fileURLWithPath: workspace.plans)
        let output = try await offPool {
            try ChildProcess.run(
                PackageExecutable.url("runner"), ["check", "--no-env", "--format", "gitlab", "./plans/prod.yaml"], environment: [:],
                directory: directory, deadline: .seconds(60))
        }
        #expect(output.status == 2)
        let report = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]])
        let errors = report.filter { $0["severity"] as? String == "major" }
        try #require(errors.count == 1, "\(report)")
        let location = try #require(errors[0]["location"] as? [String: Any])
        #expect(location["path"] as? String == "plans/prod.yaml")
        #expect((location["lines"] as? [String: Any])?["begin"] as? Int == broken.line)
        #expect(errors[0]["check_name"] as? String == "runner-plan-error")
        #expect((errors[0]["description"] as? String)?.hasPrefix("unknown key 'stauts'") == true)
        #expect(report.contains { $0["severity"] as? String == "info" })
        let fingerprints = report.compactMap { $0["fingerprint"] as? String }
        #expect(fingerprints.count == report.count)
        #expect(Set(fingerprints).count == fingerprints.count)
        #expect(fingerprints.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })

        let reportPath = try workspace.write("gl-code-quality-report.json", String(decoding: output.stdout, as: UTF8.self))
        let schemaPath = try workspace.write("codequality.schema.json", Self.gitlabSchema)
        let checked = try await offPool {
            try ChildProcess.run(Repository.checkJSONSchema, ["--schemafile", schemaPath, reportPath], deadline: .seconds(120))
        }
        #expect(
            checked.termination == .exited(0),
            "\(String(decoding: checked.stdout, as: UTF8.self))\(String(decoding: checked.stderr, as: UTF8.self))")

        // A line added above the mistake moves it, not its fingerprint.
        let moved = "# a comment\n" + (try String(contentsOfFile: broken.path, encoding: .utf8))
        _ = try workspace.write("plans/prod.yaml", moved)
        let again = try await offPool {
            try ChildProcess.run(
                PackageExecutable.url("runner"), ["check", "--no-env", "--format", "gitlab", "plans/prod.yaml"], environment: [:],
                directory: directory, deadline: .seconds(60))
        }
        let movedReport = try #require(try JSONSerialization.jsonObject(with: again.stdout) as? [[String: Any]])
        let movedError = try #require(movedReport.first { $0["severity"] as? String == "major" })
        #expect(movedError["fingerprint"] as? String == errors[0]["fingerprint"] as? String)
        #expect(((movedError["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int == broken.line + 1)
    }

    /// The other commands write their plan errors through the same path.
    @Test("run and resolve take --format for their plan errors", arguments: [["run"], ["resolve"]])
    func otherCommandsTakeFormat(_ command: [String]) async throws {
        let workspace = try PlanWorkspace()
        let broken = try Self.brokenProd(in: workspace)
        let output = try await runner(command + ["--format", "json", broken.path], environment: ProdPlanCheckTests.secrets)
        #expect(output.status == 2)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]], "\(output.stdout)")
        #expect(list.count == 1)
        #expect(list.first?["key"] as? String == "scenarios[0].expect.stauts")
    }

    @Test("--format takes text, json, github or gitlab")
    func formatWords() async throws {
        let output = try await runner(["check", "--format", "sarif", "plans/prod.yaml"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("'sarif'"), "\(output.stderr)")
        #expect(output.stderr.contains("text") && output.stderr.contains("gitlab"), "\(output.stderr)")
    }
}
