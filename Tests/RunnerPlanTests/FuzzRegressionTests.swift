import Foundation
import PlanFixtures
import RunnerPlan
import Testing

/// Inputs the fuzz targets (fuzz/targets/plan.swift) found, reduced to what each one shows.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// fuzz/regressions/plan/secret-in-looked-for-path.yaml: the path a missing file was looked
    /// for was built from the substituted value, so it showed the secret the message masked.
    @Test("a missing file's looked-for path masks the secret in it")
    func secretInMissingFilePath() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("secret-file.yaml", """
            version: 1
            defaults:
              ca: certs/${secret:API_TOKEN}.pem
            scenarios:
              - name: a
                request:
                  url: https://api.example.com/
                  body_file: "payloads/${secret:API_TOKEN}"
            """)
        let errors = loadErrors(path, environment: ["API_TOKEN": "hunter2hunter2"])
        #expect(errors.map(\.description) == [
            "\(path):3:7: error: ca file 'certs/***.pem' does not exist (looked for '\(workspace.plans)/certs/***.pem')",
            "\(path):8:18: error: body_file 'payloads/***' does not exist (looked for '\(workspace.plans)/payloads/***')",
        ])
        #expect(!errors.contains { $0.rendered.contains("hunter2") })
    }

    /// A double-quoted scalar can carry terminal escapes; quoted back in an error it shows as
    /// text (`\u{1B}`), so `runner check` cannot retitle or recolour the terminal.
    @Test("control characters in a quoted value are shown, not sent to the terminal")
    func controlCharactersInMessages() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("escape.yaml", """
            version: 1
            defaults:
              timeout: "\\e]0;owned\\a\\e[31mred"
            scenarios:
              - name: a
                request: {url: "https://api.example.com/"}
            """)
        let errors = loadErrors(path, environment: [:])
        let message = try #require(errors.first?.description)
        #expect(message.contains("'\\u{1B}]0;owned\\u{7}\\u{1B}[31mred'"), "\(message)")
        #expect(!errors.contains { $0.rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } })
    }
}
