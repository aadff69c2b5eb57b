import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// Issue 45's acceptance: a real mitmproxy capture of an app-like session with the lab becomes
/// a plan (`runner init --har`) that passes `runner check` and runs all-pass against the lab;
/// and docs/guides/capture-to-plan.md's commands, run as the guide shows them.
@Suite("a mitmproxy capture of the lab to a plan", .timeLimit(.minutes(4)))
struct CaptureGuideTests {
    /// One recording for the suite's tests: mitmdump in front of the lab, curl as the app.
    static let recording = Task { () throws -> (capture: MitmproxyCapture.Capture<MitmproxyCapture.AppSession>, folder: URL) in
        let lab = try await SharedLab.get()
        let folder = try LabPlans.temporaryDirectory()
        let capture = try await MitmproxyCapture.appSession(lab: lab, directory: folder)
        return (capture, folder)
    }

    /// A fresh folder with the capture as `lab.har` and the lab's CA as `lab-ca.pem`.
    static func workspace() async throws -> (folder: URL, session: MitmproxyCapture.AppSession) {
        let (capture, _) = try await recording.value
        let lab = try await SharedLab.get()
        let folder = try LabPlans.temporaryDirectory()
        try FileManager.default.copyItem(at: capture.har, to: folder.appendingPathComponent("lab.har"))
        try lab.caPEM.write(to: folder.appendingPathComponent("lab-ca.pem"), atomically: true, encoding: .utf8)
        return (folder, capture.result)
    }

    static func secrets(of session: MitmproxyCapture.AppSession) -> [String: String] {
        ["API_LAB_TEST_X_API_KEY": session.apiKey, "API_LAB_TEST_PASSWORD": LabSession.password]
    }

    @Test("the capture's plan: redirect folded, repeats merged, the login's token captured, 127.0.0.2 its map; it runs all-pass")
    func captureToPlanRunsAllPass() async throws {
        let (folder, session) = try await Self.workspace()
        func runner(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutput {
            try await PackageExecutable.run("runner", arguments, environment: environment, directory: folder, deadline: .seconds(90))
        }
        let made = try await runner(["init", "--har", "lab.har", "-o", "plans/lab.yaml", "--ca", "lab-ca.pem"])
        #expect(made.status == 0, "\(made.stderr)")
        let plan = try String(contentsOf: folder.appendingPathComponent("plans/lab.yaml"), encoding: .utf8)
        let stderr = made.stderr
        #expect(stderr.contains("  merged: 'GET /json': entries 0, 1 (2 identical requests)"), "\(stderr)")
        #expect(stderr.contains("  folded: 'GET /redirect-chain/2': entries 6 → 7 → 8 (2 redirects, final status 200)"), "\(stderr)")
        #expect(stderr.contains("  flow: 'GET /session/me' after 'POST /session/login': token ($.token of 'POST /session/login') in header authorization"), "\(stderr)")
        #expect(stderr.contains("  addresses: api.lab.test: 127.0.0.2 (map 'captured')"), "\(stderr)")
        #expect(stderr.contains("secret API_LAB_TEST_X_API_KEY: header x-api-key of 'GET /json'\n"), "\(stderr)")
        #expect(stderr.contains("secret API_LAB_TEST_PASSWORD: form field password of 'POST /echo (2)'; JSON field password of 'POST /session/login'\n"), "\(stderr)")
        #expect(plan.contains(#"      api.lab.test: ["127.0.0.2"]"#), "\(plan)")
        #expect(plan.contains("    capture:\n      token: {json: $.token, secret: true}\n"), "\(plan)")
        #expect(plan.contains("    after: POST /session/login\n"), "\(plan)")
        #expect(plan.contains("        authorization: Bearer ${capture:token}\n"), "\(plan)")
        #expect(plan.contains("  ca: ../lab-ca.pem\n") || plan.contains(#"  ca: "../lab-ca.pem""#), "\(plan)")
        // The protobuf body as the app sent it, byte for byte (mitmproxy kept it as Latin-1 text).
        let bodies = folder.appendingPathComponent("plans/lab.yaml.bodies")
        let files = try FileManager.default.contentsOfDirectory(atPath: bodies.path)
        #expect(files.count == 1, "\(files)")
        if let file = files.first {
            #expect(try Data(contentsOf: bodies.appendingPathComponent(file)) == session.binaryBody)
        }
        let leaks = SecretScan.leaks(of: [session.apiKey, LabSession.password, session.token], in: stderr + made.stdout, place: "output")
            + SecretScan.leaks(of: [session.apiKey, LabSession.password, session.token], inFilesUnder: folder.appendingPathComponent("plans"))
        #expect(leaks.isEmpty, "\(leaks)")

        let reviewed = try await runner(["check", "--no-env", "plans/lab.yaml"])
        #expect(reviewed.status == 0, "\(reviewed.stdout)\(reviewed.stderr)")
        let run = try await runner(["plans/lab.yaml", "--json", "report.json", "--junit", "junit.xml"], environment: Self.secrets(of: session))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["passed"] as? Int == 8, "\(summary)")
        #expect(summary["failed"] as? Int == 0 && summary["errors"] as? Int == 0, "\(summary)")
    }

    @Test("docs/guides/capture-to-plan.md: the lab block runs as it is, and every scenario passes")
    func theGuidesCommandsRun() async throws {
        let guide = try String(contentsOf: Repository.root.appendingPathComponent("docs/guides/capture-to-plan.md"), encoding: .utf8)
        let marker = "<!-- run by Tests/RunnerCLITests/CaptureGuideTests.swift -->\n```sh\n"
        let start = try #require(guide.range(of: marker), "the guide's lab block")
        let end = try #require(guide.range(of: "```", range: start.upperBound..<guide.endIndex))
        let block = String(guide[start.upperBound..<end.lowerBound])
        #expect(block.contains("runner init --har lab.har"))
        let (folder, session) = try await Self.workspace()
        #expect(block.contains("export API_LAB_TEST_X_API_KEY=\(session.apiKey) API_LAB_TEST_PASSWORD=\(LabSession.password)"))
        let binaries = PackageExecutable.url("runner").deletingLastPathComponent().path
        let script = "set -euo pipefail\nexport PATH=\"\(binaries):$PATH\"\n" + block
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["HOME": folder.path, "NO_COLOR": "1"],
                directory: folder, deadline: .seconds(120))
        }
        let stdout = String(decoding: output.stdout, as: UTF8.self), stderr = String(decoding: output.stderr, as: UTF8.self)
        #expect(output.status == 0, "\(stdout)\(stderr)")
        #expect(stdout.contains("plans/lab-capture.yaml: ok (8 scenarios)"), "\(stdout)")
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"failures="0""#) && junit.contains(#"errors="0""#), "\(junit)")
    }
}
