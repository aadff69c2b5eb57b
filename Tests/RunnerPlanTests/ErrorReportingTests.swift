import Foundation
import PlanFixtures
import RunnerPlan
import Testing

@Suite("Error reporting")
struct ErrorReportingTests {
    @Test("the caret snippet shows the line and points at the column")
    func renderedSnippet() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("bad.yaml", """
            version: 1
            scenarios:
              - name: login
                request:
                  url: https://api.example.com/
                expct:
                  status: 200
            """)
        let errors = loadErrors(path)
        #expect(errors.count == 1)
        #expect(errors.first?.rendered == """
            \(path):6:5: error: unknown key 'expct' in scenario 'login'; did you mean 'expect'?
                    expct:
                    ^
            """)
    }

    @Test("a node an alias repeats is decoded twice, and its error reported once")
    func aliasedErrorOnce() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("alias.yaml", """
            version: 1
            domains:
              a: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}", auth: &auth {scheme: alibaba-sign, secret: "${secret:UNSET_SECRET_FOR_ALIAS}"}}}
              b: {httpdns: {format: alibaba, url: "http://192.0.2.2/d?host={host}", auth: *auth}}
            scenarios:
              - {name: s, domains: a, request: {url: "https://api.example.com/"}}
            """)
        let errors = loadErrors(path).map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        #expect(errors == ["3:116 environment variable 'UNSET_SECRET_FOR_ALIAS' is not set"], "\(errors)")
    }

    @Test("every error in a plan is reported, in file order")
    func multipleErrors() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("many.yaml", """
            version: 1
            defaults:
              timeout: 10
            scenarios:
              - name: a
                request:
                  url: http://api.example.com/
                expct: {}
              - name: b
                tags: [x]
                tags: [y]
                request: {url: "ftp://files.example.com/"}
              - name: a
                strategy: sni-reslove
                request:
                  url: https://api.example.com/
                  body: x
                  body_file: nope.bin
              - name: c
                request: {url: http://api.example.com/}
                expect: {status: 2xx, redirects: -1}
            """)
        let errors = loadErrors(path)
        #expect(errors.map(\.description) == [
            "\(path):3:12: error: expected a duration with a unit such as '3s' or '250ms' for 'timeout' in defaults, got '10'",
            "\(path):8:5: error: unknown key 'expct' in scenario 'a'; did you mean 'expect'?",
            "\(path):11:5: error: duplicate key 'tags' (first at 10:5)",
            "\(path):12:20: error: expected an absolute http:// or https:// URL for 'url' in request of scenario 'b', got 'ftp://files.example.com/'",
            "\(path):13:11: error: duplicate scenario name 'a' (first at 5:11)",
            "\(path):14:15: error: unknown strategy 'sni-reslove' in scenario 'a'; did you mean 'sni-resolve'?",
            "\(path):18:7: error: only one of 'body', 'body_base64' and 'body_file' may be given in request of scenario 'a'; found 'body' and 'body_file'",
            "\(path):21:38: error: expected a non-negative integer for 'redirects' in expect of scenario 'c', got '-1'",
        ])
        // PlanErrors renders them all, each with its snippet.
        let description = PlanErrors(errors).description
        #expect(description.split(separator: "\n").count == errors.count * 3)
    }

    @Test("secret values never appear in error messages")
    func secretsMasked() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("secret.yaml", """
            version: 1
            vars:
              token: "Bearer ${secret:API_TOKEN}"
            scenarios:
              - name: a
                timeout: ${secret:API_TOKEN}
                request: {url: "http://api.example.com/${token}"}
                expect:
                  headers:
                    X-Token: {matches: "${secret:API_TOKEN}(["}
                  redirects: "${token}"
            """)
        let errors = loadErrors(path, environment: ["API_TOKEN": "hunter2hunter2"])
        #expect(errors.map(\.description) == [
            "\(path):6:14: error: expected a duration with a unit such as '3s' or '250ms' for 'timeout' in scenario 'a', got '***'",
            "\(path):10:28: error: invalid regular expression '***([' for 'matches' in the matcher for header 'X-Token' of scenario 'a': it does not compile",
            "\(path):11:18: error: expected a non-negative integer for 'redirects' in expect of scenario 'a', got 'Bearer ***'",
        ])
        #expect(!errors.contains { $0.rendered.contains("hunter2") })
    }

    @Test("a plan file that does not exist")
    func missingFile() throws {
        let workspace = try PlanWorkspace()
        let path = workspace.plans + "/absent.yaml"
        #expect(loadErrors(path).map(\.description) == [
            "error: cannot read plan '\(path)': No such file or directory"
        ])
        #expect(loadErrors(workspace.plans).map(\.description) == [
            "error: cannot read plan '\(workspace.plans)': it is a directory"
        ])
    }

    @Test("a file over 64 MiB is refused without being read")
    func tooLarge() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("huge.yaml", "version: 1\n")
        // A sparse file: large on paper, nothing on disk.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(64 << 20) + 1)
        try handle.close()
        let started = ContinuousClock.now
        let errors = loadErrors(path)
        #expect(errors.map(\.description) == [
            "error: plan '\(path)' is larger than 64 MiB; refusing to read it"
        ])
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("an alias bomb is refused fast")
    func aliasBombIsFast() throws {
        let workspace = try PlanWorkspace()
        var lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<20 {
            let items = Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ")
            lines.append("l\(level): &l\(level) [\(items)]")
        }
        lines[0] = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"
        let path = try workspace.write("bomb.yaml", lines.joined(separator: "\n"))
        let started = ContinuousClock.now
        let errors = loadErrors(path)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("alias bomb") == true)
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}

@Suite("Line endings and encodings")
struct LineEndingTests {
    @Test("CRLF line endings: positions and snippets are those of the text")
    func crlf() throws {
        let workspace = try PlanWorkspace()
        let text = "version: 1\r\nscenarios:\r\n  - name: a\r\n    request: {url: http://api.example.com/}\r\n    expect: {status: 99}\r\n"
        let path = try workspace.write("crlf.yaml", text)
        let errors = loadErrors(path)
        #expect(errors.map(\.rendered) == [
            """
            \(path):5:22: error: expected a status code (100-599), a list of codes, or a class such as '2xx' for 'status' in expect of scenario 'a', got '99'
                    expect: {status: 99}
                                     ^
            """
        ])
    }

    @Test("a UTF-8 byte-order mark is accepted")
    func byteOrderMark() throws {
        let workspace = try PlanWorkspace()
        let text = "version: 1\nscenarios:\n  - name: café\n    request: {url: http://api.example.com/}\n"
        let path = try workspace.write("bom.yaml", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let plan = try PlanLoader.load(path: path, environment: [:])
        #expect(plan.scenarios.map(\.name) == ["café"])
    }
}
