import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// `--format` (issue 43): plan errors as JSON, GitHub workflow commands and a GitLab Code
/// Quality report, each with where its token ends and its key path, read back from real plans.
@Suite("Plan errors for tools (--format)")
struct PlanErrorFormatTests {
    /// The findings of a plan written in a fresh workspace.
    static func findings(
        _ yaml: String, in workspace: PlanWorkspace? = nil, environment: [String: String] = [:]
    ) throws -> (path: String, findings: [PlanFinding]) {
        let workspace = try workspace ?? PlanWorkspace()
        let path = try workspace.write("plan.yaml", yaml)
        let errors = loadErrors(path, environment: environment)
        return (path, errors.map { PlanFinding(plan: path, error: $0) })
    }

    static let scenarioHead = "version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://h.example/'}\n"

    @Test("each error knows where its token ends and its key path", arguments: [
        // An unknown key, a plain scalar with a comment after it, a quoted scalar, a flow
        // collection, a key that is not a plain word in a flow mapping.
        (scenarioHead + "    tiemout: 1s\n", 5, 5, 5, 11, "scenarios[0].tiemout"),
        (scenarioHead + "    timeout: tenseconds # why\n", 5, 14, 5, 23, "scenarios[0].timeout"),
        (scenarioHead + "    retries: \"3\"\n", 5, 14, 5, 16, "scenarios[0].retries"),
        (scenarioHead + "    tags: {a: 1}\n", 5, 11, 5, 16, "scenarios[0].tags"),
        ("version: 1\nscenarios:\n  - {name: a, request: {url: 'https://h.example/', 'a.b': 1}}\n", 3, 52, 3, 56,
         "scenarios[0].request[\"a.b\"]"),
    ])
    func endAndKey(_ sample: (String, Int, Int, Int, Int, String)) throws {
        let (plan, line, column, endLine, endColumn, key) = sample
        let (_, findings) = try Self.findings(plan)
        let error = try #require(findings.first?.error, "\(plan)")
        #expect(findings.count == 1, "\(findings.map(\.error.description))")
        #expect(error.location?.line == line, "\(error)")
        #expect(error.location?.column == column, "\(error)")
        #expect(error.end == SourcePosition(line: endLine, column: endColumn), "\(error)")
        #expect(error.keyPath == key, "\(error)")
    }

    @Test("a syntax error has no key path; its end is on its line")
    func syntaxError() throws {
        let (_, findings) = try Self.findings("version: 1\n\tscenarios: []\n")
        let error = try #require(findings.first?.error)
        #expect(error.message == "tab character where YAML expects spaces; indent with spaces, not tabs")
        #expect(error.keyPath == nil)
        #expect(error.end == SourcePosition(line: 2, column: 10))
    }

    @Test("json: every field of every finding, null where there is none, as JSONSerialization reads it")
    func json() throws {
        let (path, findings) = try Self.findings("version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://h.example/'}\n    stratgy: x\n")
        var all = findings
        all.append(PlanFinding(plan: "plans/", error: PlanError(location: nil, message: "plan folder 'plans/' holds no plan")))
        let text = try PlanErrorFormat.json.render(all)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        try #require(list.count == 2)
        #expect(list[0]["file"] as? String == path)
        #expect(list[0]["line"] as? Int == 5)
        #expect(list[0]["column"] as? Int == 5)
        #expect(list[0]["end_line"] as? Int == 5)
        #expect(list[0]["end_column"] as? Int == 11)
        #expect(list[0]["severity"] as? String == "error")
        #expect(list[0]["message"] as? String == "unknown key 'stratgy' in scenario 'a'; did you mean 'strategy'?")
        #expect(list[0]["key"] as? String == "scenarios[0].stratgy")
        #expect(list[1]["file"] as? String == "plans/")
        for field in ["line", "column", "end_line", "end_column", "key"] {
            #expect(list[1][field] is NSNull, "\(field)")
        }
        #expect(try PlanErrorFormat.json.render([]).filter { !$0.isWhitespace } == "[]")
    }

    @Test("github: the workflow command, its properties and message escaped as GitHub's toolkit escapes them")
    func github() throws {
        var located = PlanError(location: SourceLocation(file: "plans/a,b:c.yaml", line: 3, column: 5), message: "")
        // Set past `PlanError.init`, which shows control characters as `\u{…}`: the escaping
        // must hold for any text.
        located.message = "100% wrong\r\nhere: a, b"
        located.end = SourcePosition(line: 3, column: 9)
        located.keyPath = "domains[\"a:b\"]"
        #expect(
            PlanErrorFormat.githubCommand(PlanFinding(plan: "p", error: located))
                == "::error file=plans/a%2Cb%3Ac.yaml,line=3,col=5,endLine=3,endColumn=9,title=runner%3A domains[\"a%3Ab\"]::100%25 wrong%0D%0Ahere: a, b")
        // Over two lines: no columns (GitHub takes them on one line only).
        located.end = SourcePosition(line: 4, column: 2)
        #expect(
            PlanErrorFormat.githubCommand(PlanFinding(plan: "p", error: located))
                == "::error file=plans/a%2Cb%3Ac.yaml,line=3,endLine=4,title=runner%3A domains[\"a%3Ab\"]::100%25 wrong%0D%0Ahere: a, b")
        // A note is a notice; no location: the plan's file alone.
        let note = PlanError(location: nil, message: "m", severity: .note)
        #expect(PlanErrorFormat.githubCommand(PlanFinding(plan: "plans/p.yaml", error: note)) == "::notice file=plans/p.yaml,title=runner::m")
    }

    @Test("gitlab: Code Quality issues with GitLab's required fields; fingerprints SHA-256, unique, kept when lines move")
    func gitlab() throws {
        let plan = "version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://h.example/'}\n    stratgy: x\n    tiemout: y\n"
        let workspace = try PlanWorkspace()
        let (_, findings) = try Self.findings(plan, in: workspace)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(try PlanErrorFormat.gitlab.render(findings).utf8)) as? [[String: Any]])
        try #require(report.count == 2)
        for issue in report {
            #expect(Set(issue.keys) == ["description", "check_name", "fingerprint", "severity", "location"])
            #expect(issue["severity"] as? String == "major")
            #expect(issue["check_name"] as? String == "runner-plan-error")
            let location = try #require(issue["location"] as? [String: Any])
            #expect((location["path"] as? String)?.hasSuffix("plan.yaml") == true)
            #expect((location["lines"] as? [String: Any])?["begin"] is Int)
        }
        let fingerprints = report.compactMap { $0["fingerprint"] as? String }
        #expect(Set(fingerprints).count == 2)
        // The known SHA-256 of the identity (OpenSSL's, through CCryptoShim).
        #expect(try Fingerprint.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")

        // The same findings two lines further down keep their fingerprints.
        let (_, moved) = try Self.findings(plan.replacingOccurrences(of: "scenarios:\n", with: "# one\n# two\nscenarios:\n"), in: workspace)
        #expect(moved.map { $0.error.location?.line } == findings.map { $0.error.location.map { $0.line + 2 } })
        let movedReport = try #require(
            try JSONSerialization.jsonObject(with: Data(try PlanErrorFormat.gitlab.render(moved).utf8)) as? [[String: Any]])
        #expect(movedReport.compactMap { $0["fingerprint"] as? String } == fingerprints)

        // Two alike findings (same place and message) still differ: GitLab keys issues by it.
        let twice = PlanFinding(plan: "p.yaml", error: PlanError(location: nil, message: "same"))
        let alike = try #require(
            try JSONSerialization.jsonObject(with: Data(try PlanErrorFormat.gitlab.render([twice, twice]).utf8)) as? [[String: Any]])
        #expect(Set(alike.compactMap { $0["fingerprint"] as? String }).count == 2)
        // A note is `info`; `./` is dropped from a path (GitLab's paths are the repository's).
        let note = PlanFinding(plan: "./plans/p.yaml", error: PlanError(location: nil, message: "n", severity: .note))
        let noted = try #require(
            try JSONSerialization.jsonObject(with: Data(try PlanErrorFormat.gitlab.render([note]).utf8)) as? [[String: Any]])
        #expect(noted.first?["severity"] as? String == "info")
        #expect((noted.first?["location"] as? [String: Any])?["path"] as? String == "plans/p.yaml")
    }

    @Test("text is the terminal's form, unchanged")
    func text() throws {
        let (_, findings) = try Self.findings("version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://h.example/'}\n    stratgy: x\n")
        #expect(try PlanErrorFormat.text.render(findings) == PlanErrors(findings.map(\.error)).description)
    }
}
