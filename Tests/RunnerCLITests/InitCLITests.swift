import Foundation
import LabTestSupport
import PlanFixtures
import Testing

/// Issue 45: `runner init --har` on the built runner, with captures as the tools write them
/// (`HandCaptures`); `MitmproxyInitTests` makes one with mitmproxy and runs its plan.
@Suite("runner init --har", .timeLimit(.minutes(3)))
struct InitCLITests {
    /// A folder holding the capture `name`, and the runner run in it.
    struct Workspace {
        let folder: URL

        init(capture: String, name: String = "app.har") throws {
            folder = try LabPlans.temporaryDirectory()
            try Data(capture.utf8).write(to: folder.appendingPathComponent(name))
        }

        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutput {
            try await PackageExecutable.run("runner", arguments, environment: environment, directory: folder, deadline: .seconds(60))
        }

        func text(_ file: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }

        func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) }
    }

    static let shopSecrets = [
        "API_SHOP_TEST_AUTHORIZATION": "Bearer \(HandCaptures.jwt)", "API_SHOP_TEST_COOKIE": "theme=dark; sid=\(HandCaptures.sessionCookie)",
        "API_SHOP_TEST_SIGN": HandCaptures.sign, "API_SHOP_TEST_X_API_KEY": HandCaptures.apiKey,
        "API_SHOP_TEST_PASSWORD": HandCaptures.password, "API_SHOP_TEST_REFRESHTOKEN": HandCaptures.bodyToken,
    ]

    @Test("Chrome's HTTP/2 capture: a plan that passes runner check, its secrets named on stderr, none in clear")
    func chromeCapture() async throws {
        let workspace = try Workspace(capture: HandCaptures.chrome)
        let made = try await workspace.run(["init", "--har", "app.har", "-o", "shop.yaml"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.isEmpty)
        let plan = try workspace.text("shop.yaml")
        let secretLines = made.stderr.split(separator: "\n").filter { $0.hasPrefix("secret ") }
        #expect(secretLines == [
            "secret API_SHOP_TEST_AUTHORIZATION: header authorization of 'GET /v1/home'",
            "secret API_SHOP_TEST_COOKIE: header cookie of 'GET /v1/home'",
            "secret API_SHOP_TEST_SIGN: query parameter sign of 'POST /v1/cart'",
            "secret API_SHOP_TEST_X_API_KEY: header x-api-key of 'POST /v1/cart'",
            "secret API_SHOP_TEST_PASSWORD: JSON field password of 'POST /v1/cart'",
            "secret API_SHOP_TEST_REFRESHTOKEN: JSON field refreshToken of 'POST /v1/cart'",
        ])
        #expect(made.stderr.contains("  merged: 'GET /v1/home': entries 0, 3 (2 identical requests)"))
        #expect(made.stderr.contains("  dropped: entry 2 (GET https://cdn.shop.test/app.js): failed: net::ERR_NAME_NOT_RESOLVED"))
        #expect(made.stderr.hasSuffix("runner init: wrote shop.yaml: 2 scenarios from 4 entries\n"))
        // The recorded IPv6 address, brackets gone; pseudo-headers, accept-encoding and content-length not sent.
        #expect(plan.contains("      api.shop.test: [\"2001:db8::10\"]") || plan.contains("      api.shop.test: [2001:db8::10]"), "\(plan)")
        #expect(!plan.contains(":authority") && !plan.contains("accept-encoding") && !plan.contains("content-length"), "\(plan)")
        #expect(plan.contains("json_exists: [$.banner, $.items, $.next]") || plan.contains(#"json_exists: ["$.banner", "$.items", "$.next"]"#), "\(plan)")
        let leaks = SecretScan.leaks(of: HandCaptures.secrets, in: made.stderr + made.stdout, place: "output")
            + SecretScan.leaks(of: HandCaptures.secrets, inFilesUnder: workspace.folder)
        #expect(leaks.isEmpty, "\(leaks)")

        let reviewed = try await workspace.run(["check", "--no-env", "shop.yaml"], environment: [:])
        #expect(reviewed.status == 0, "\(reviewed.stdout)\(reviewed.stderr)")
        let checked = try await workspace.run(["check", "shop.yaml"], environment: Self.shopSecrets)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout == "shop.yaml: ok (2 scenarios)\n", "\(checked.stdout)\(checked.stderr)")
    }

    @Test("Charles' capture: a form kept only as params, multipart with a secret field, base64 answers, nulls, a string creator")
    func charlesCapture() async throws {
        let workspace = try Workspace(capture: HandCaptures.charles, name: "charles.har")
        let made = try await workspace.run(["init", "--har", "charles.har", "-o", "plans/static.yaml"])
        #expect(made.status == 0, "\(made.stderr)")
        let plan = try workspace.text("plans/static.yaml")
        #expect(plan.contains("body: user=probe&password=${secret:STATIC_SHOP_TEST_PASSWORD}\n"), "\(plan)")
        #expect(plan.contains("${secret:STATIC_SHOP_TEST_SESSION_KEY}"), "\(plan)")
        #expect(plan.contains("url: http://static.shop.test:8080/api/form") || plan.contains(#"url: "http://static.shop.test:8080/api/form""#), "\(plan)")
        #expect(plan.contains("json_exists: [$.ok]") || plan.contains(#"json_exists: ["$.ok"]"#), "\(plan)")
        #expect(made.stderr.contains("secret STATIC_SHOP_TEST_PASSWORD: form field password of 'POST /api/form' (as the form carries it, percent-encoded)"), "\(made.stderr)")
        let leaks = SecretScan.leaks(of: HandCaptures.secrets, in: made.stderr + made.stdout, place: "output")
            + SecretScan.leaks(of: HandCaptures.secrets, inFilesUnder: workspace.folder)
        #expect(leaks.isEmpty, "\(leaks)")
        #expect(made.stderr.contains("  rebuilt: 'POST /api/form': form body rebuilt from the capture's params\n"), "\(made.stderr)")
        let checked = try await workspace.run(["check", "--no-env", "plans/static.yaml"], environment: [:])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        // Editors that read docs/plan.schema.json take the plan as it is.
        let schema = try await offPool {
            try ChildProcess.run(
                Repository.checkJSONSchema, ["--schemafile", Repository.planSchema.path, "plans/static.yaml"], environment: [:],
                directory: workspace.folder, deadline: .seconds(60))
        }
        #expect(schema.status == 0, "\(String(decoding: schema.stdout + schema.stderr, as: UTF8.self))")
    }

    @Test("a capture it cannot read: exit 2, FILE: entry N: …, and no plan or bodies folder written")
    func unreadableCapture() async throws {
        let broken = HandCaptures.chrome.replacingOccurrences(of: #""method": "POST""#, with: #""method": 17"#)
        let workspace = try Workspace(capture: broken)
        let made = try await workspace.run(["init", "--har", "app.har", "-o", "shop.yaml"])
        #expect(made.status == 2)
        #expect(made.stderr.hasPrefix("error: app.har: entry 1: "), "\(made.stderr)")
        #expect(!workspace.exists("shop.yaml") && !workspace.exists("shop.yaml.bodies"))
        let missing = try await workspace.run(["init", "--har", "nothing.har"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: nothing.har: cannot read the file"), "\(missing.stderr)")
    }

    @Test("-o refuses to replace a plan without --force; --force replaces it and its bodies folder")
    func overwriteNeedsForce() async throws {
        let workspace = try Workspace(capture: HandCaptures.charles)
        try Data("version: 1\n".utf8).write(to: workspace.folder.appendingPathComponent("plan.yaml"))
        let refused = try await workspace.run(["init", "--har", "app.har", "-o", "plan.yaml"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "error: plan.yaml: already exists; give --force to replace it (and its bodies folder)\n")
        #expect(try workspace.text("plan.yaml") == "version: 1\n")
        try FileManager.default.createDirectory(at: workspace.folder.appendingPathComponent("plan.yaml.bodies"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: workspace.folder.appendingPathComponent("plan.yaml.bodies/001-old.bin"))
        let forced = try await workspace.run(["init", "--har", "app.har", "-o", "plan.yaml", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try workspace.text("plan.yaml").contains("scenarios:"))
        #expect(!workspace.exists("plan.yaml.bodies"), "the old plan's bodies went with it")
    }

    @Test("a binary body goes to PLAN.bodies/ byte for byte; on standard output it is body_base64")
    func binaryBodies() async throws {
        let bytes: [UInt8] = [0x0A, 0x05, 0x00, 0xFF, 0x80, 0x7F, 0x0D, 0x0A]
        let capture = """
            {"log": {"version": "1.3", "creator": {"name": "mitmproxy", "version": "11"}, "entries": [
            {"startedDateTime": "2026-11-27T10:00:00Z", "time": 1, "serverIPAddress": "203.0.113.5",
             "request": {"method": "POST", "url": "https://rpc.shop.test/pb.Cart/Add", "httpVersion": "HTTP/2.0", "cookies": [], "queryString": [], "headersSize": -1, "bodySize": 8,
               "headers": [{"name": "content-type", "value": "application/x-protobuf"}],
               "postData": {"mimeType": "application/x-protobuf", "text": "\(Data(bytes).base64EncodedString())", "encoding": "base64"}},
             "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/2.0", "cookies": [], "headers": [], "content": {"size": 0, "mimeType": "application/x-protobuf"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """
        let workspace = try Workspace(capture: capture)
        let made = try await workspace.run(["init", "--har", "app.har", "-o", "rpc.yaml"])
        #expect(made.status == 0, "\(made.stderr)")
        let file = "rpc.yaml.bodies/001-post-pb-cart-add.pb"
        #expect(try workspace.text("rpc.yaml").contains("body_file: \(file)"))
        #expect(try Data(contentsOf: workspace.folder.appendingPathComponent(file)) == Data(bytes))
        #expect(made.stderr.hasSuffix("1 body file in rpc.yaml.bodies/\n"), "\(made.stderr)")
        let printed = try await workspace.run(["init", "--har", "app.har"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("body_base64: \(Data(bytes).base64EncodedString())"), "\(printed.stdout)")
    }

    @Test("--map and --app copy the team's map (with its clients and fallback) and app (paths rebased) from --domains FILE")
    func teamMapAndApp() async throws {
        let workspace = try Workspace(capture: HandCaptures.charles)
        let team = workspace.folder.appendingPathComponent("team")
        try FileManager.default.createDirectory(at: team.appendingPathComponent("android"), withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0" encoding="utf-8"?><network-security-config><base-config cleartextTrafficPermitted="true"/></network-security-config>"#.utf8)
            .write(to: team.appendingPathComponent("android/nsc.xml"))
        try Data("""
            version: 1
            clients:
              gd-mobile: {subnet: 120.196.0.0/24}
            domains:
              ali:
                httpdns: {format: dnspod, url: "http://119.29.29.29/d?dn={host}&ip={client}", clients: [gd-mobile], fallback: backup}
              backup:
                static: {static.shop.test: [198.51.100.9]}
            apps:
              shop-android:
                android: {network_security_config: android/nsc.xml, target_sdk: 34}
            scenarios:
              - name: x
                request: {url: "https://static.shop.test/"}
            """.utf8).write(to: team.appendingPathComponent("prod.yaml"))
        let made = try await workspace.run([
            "init", "--har", "app.har", "-o", "plans/new.yaml", "--map", "ali", "--domains", "team/prod.yaml", "--app", "shop-android",
            "--strategy", "sni-resolve",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let plan = try workspace.text("plans/new.yaml")
        #expect(plan.contains("  domains: ali\n  strategy: sni-resolve\n  app: [shop-android]\n"), "\(plan)")
        #expect(plan.contains(#"network_security_config: "../team/android/nsc.xml""#), "\(plan)")
        #expect(plan.contains("gd-mobile:") && plan.contains("backup:") && !plan.contains("captured:"), "\(plan)")
        let checked = try await workspace.run(["check", "--no-env", "plans/new.yaml"], environment: [:])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let unknown = try await workspace.run(["init", "--har", "app.har", "--map", "nope", "--domains", "team/prod.yaml"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: team/prod.yaml: no domain map 'nope' under domains: (--map nope)"), "\(unknown.stderr)")
    }
}
