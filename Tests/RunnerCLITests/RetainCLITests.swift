import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LabTestSupport
import PlanFixtures
import RunnerLab
import RunnerState
import Testing

/// `retain:` with `--state`, against the lab's DNSPod replica whose answer changes between runs:
/// the plan's `${client}` picks the network the service answers (`LabDNS.populations`), so one
/// run sees one edge and the next another, for the same map, host and client.
@Suite("Retained addresses", .timeLimit(.minutes(3)))
struct RetainCLITests {
    func plan(_ lab: Lab) throws -> String {
        try LabPlans.write("""
            version: 1
            name: retained
            vars: {network: 120.196.0.1}
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip=${network}", retain: 1h}
            scenarios:
              - {name: api, domains: tencent, request: {url: "https://api.lab.test:{{https}}/echo"}, expect: {status: 200}}
            """, lab: lab)
    }

    func run(_ arguments: [String]) async throws -> ProcessOutput {
        try await PackageExecutable.run("runner", arguments + ["--color", "never"])
    }

    func stateCommand(_ arguments: [String]) async throws -> ProcessOutput {
        try await PackageExecutable.run("runner", ["state"] + arguments)
    }

    @Test func anEdgeDroppedFromTheAnswerIsCheckedAsRetainedUntilForgotten() async throws {
        let lab = try await SharedLab.get()
        let file = try plan(lab)
        let folder = try LabPlans.temporaryDirectory()
        let state = folder.appendingPathComponent("state.db").path

        // Run 1: the service sends this network to 127.0.0.2; nothing retained yet.
        let first = try await run([file, "--state", state])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("PASS  api [sni-resolve 127.0.0.2]") && !first.stdout.contains("RETAINED"), "\(first.stdout)")

        // Run 2: now to the dead edge; 127.0.0.2 is retained and still passes.
        let second = try await run([file, "--state", state, "--var", "network=123.112.0.1", "-v"])
        #expect(second.status == 1, "the dead edge: \(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("PASS  api [sni-resolve 127.0.0.2] [RETAINED]"), "\(second.stdout)")
        #expect(second.stdout.contains("retained: last returned by 'tencent' "), "\(second.stdout)")

        // Run 3: back to 127.0.0.2; the dead edge is retained, fails, and says who still goes there.
        let third = try await run([
            file, "--state", state, "--json", folder.appendingPathComponent("third.json").path,
            "--html", folder.appendingPathComponent("third.html").path, "--metrics", folder.appendingPathComponent("third.prom").path,
            "--junit", folder.appendingPathComponent("third.xml").path,
        ])
        #expect(third.status == 1, "\(third.stdout)\(third.stderr)")
        #expect(third.stdout.contains("ERROR api [sni-resolve 127.0.0.9] [RETAINED] — connect: "), "\(third.stdout)")
        #expect(third.stdout.contains("apps that cached it in the last 1h still connect here"), "\(third.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("third.json"))) as? [String: Any])
        let results = try #require((report["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let retained = results.compactMap { ($0["evidence"] as? [String: Any])?["retained"] as? [String: Any] }
        #expect(retained.count == 1 && retained.first?["map"] as? String == "tencent" && retained.first?["window_s"] as? Int == 3600,
            "\(results)")

        // JUnit names it among the suite's properties, beside the answer that no longer holds it.
        let junit = try String(contentsOf: folder.appendingPathComponent("third.xml"), encoding: .utf8)
        #expect(junit.contains(#"<property name="domains.tencent.api.lab.test retained" value="127.0.0.9 (last returned by &apos;tencent&apos; "#)
            || junit.contains(#"<property name="domains.tencent.api.lab.test retained" value="127.0.0.9 (last returned by 'tencent' "#), "\(junit)")
        #expect(junit.contains(#"<property name="domains.tencent.api.lab.test" value="127.0.0.2 "#), "\(junit)")

        // The HTML report marks it; the metrics say which result is retained.
        let page = try String(contentsOf: folder.appendingPathComponent("third.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<span class=\"tag-retained\">RETAINED</span>").count == 2, "one retained result")
        let metrics = try String(contentsOf: folder.appendingPathComponent("third.prom"), encoding: .utf8)
        #expect(metrics.split(separator: "\n").filter { $0.hasPrefix("runner_address_retained{") }
            == ["runner_address_retained{plan=\"retained\",scenario=\"api\",strategy=\"sni-resolve\",ip=\"127.0.0.9\"} 1"], "\(metrics)")

        // The state shows both; forgetting the dead edge stops its check.
        let show = try await stateCommand(["show", "--state", state, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["address"] as? String }.sorted() == ["127.0.0.2", "127.0.0.9"], "\(rows)")
        #expect(rows.allSatisfy { $0["plan"] as? String == "retained" && $0["map"] as? String == "tencent" && $0["client"] is NSNull })
        let forget = try await stateCommand(["forget", "--state", state, "127.0.0.9"])
        #expect(forget.status == 0 && forget.stdout == "forgot 1 record of 127.0.0.9 in \(state)\n", "\(forget.stdout)\(forget.stderr)")
        let fourth = try await run([file, "--state", state])
        #expect(fourth.status == 0 && !fourth.stdout.contains("RETAINED"), "\(fourth.stdout)\(fourth.stderr)")
    }

    /// `retain: sdk`: the window is the one the map's SDK profile gives (here Tencent's expired
    /// answers reused for 2h; the lab's answer has no TTL), as the JSON evidence says.
    @Test func retainSDKTakesTheProfilesWindow() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: retained-sdk
            vars: {network: 120.196.0.1}
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            domains:
              tencent:
                httpdns:
                  format: dnspod
                  url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip=${network}"
                  sdk: {profile: tencent-android, expired: 2h}
                  retain: sdk
            scenarios:
              - {name: api, domains: tencent, request: {url: "https://api.lab.test:{{https}}/echo"}, expect: {status: 200}}
            """, lab: lab)
        let folder = try LabPlans.temporaryDirectory()
        let state = folder.appendingPathComponent("state.db").path
        let first = try await run([file, "--state", state])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let report = folder.appendingPathComponent("second.json")
        let second = try await run([file, "--state", state, "--var", "network=123.112.0.1", "--json", report.path])
        #expect(second.stdout.contains("PASS  api [sni-resolve 127.0.0.2] [RETAINED]"), "\(second.stdout)\(second.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let results = try #require((json["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let retained = results.compactMap { ($0["evidence"] as? [String: Any])?["retained"] as? [String: Any] }
        #expect(retained.count == 1 && retained.first?["window_s"] as? Int == 7200, "\(results)")
    }

    /// The window's end, with the clock injected where the run reads it: earlier runs' answers
    /// recorded in the file at past times. An address last returned 30 minutes ago (and not now)
    /// is still checked under `retain: 1h`; one last returned 2 hours ago is not, though the file
    /// still holds it.
    @Test func theWindowsEndStopsTheRetainedCheck() async throws {
        let lab = try await SharedLab.get()
        let state = try LabPlans.temporaryDirectory().appendingPathComponent("window.db").path
        do {
            let memory = try AddressMemory.open(path: state)
            let now = Date()
            for (addresses, ago) in [(["127.0.0.2", "127.0.0.7"], 7300.0), (["127.0.0.2", "127.0.0.8"], 7200), (["127.0.0.2", "127.0.0.8"], 1800)] {
                _ = try memory.recording(plan: "retained").answer(
                    map: "tencent", host: "api.lab.test", client: nil, addresses: addresses, at: now.addingTimeInterval(-ago),
                    window: .seconds(3600))
            }
            #expect(memory.flush().isComplete)
        }
        let output = try await run([try plan(lab), "--state", state, "-v"])
        #expect(output.stdout.contains("PASS  api [sni-resolve 127.0.0.2]  200"), "\(output.stdout)")
        #expect(output.stdout.contains("api [sni-resolve 127.0.0.8] [RETAINED]"), "left 30 minutes ago: \(output.stdout)")
        #expect(output.stdout.contains("retained: last returned by 'tencent' 30m"), "\(output.stdout)")
        #expect(!output.stdout.contains("127.0.0.7"), "left 2 hours ago, past the 1h window: \(output.stdout)")
        let show = try await stateCommand(["show", "--state", state, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["address"] as? String }.sorted() == ["127.0.0.2", "127.0.0.7", "127.0.0.8"], "kept: \(rows)")
    }

    @Test func withoutStateTheRunSaysOnceThatItChecksOnlyTheCurrentAnswer() async throws {
        let lab = try await SharedLab.get()
        let output = try await run([try plan(lab)])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr == "note: no --state FILE: retain on 'tencent' checks only the current answers; "
            + "give --state to remember what the services returned between runs\n", "\(output.stderr)")
    }

    /// A file that is not a state file is exit 2 with its name, and left as it was.
    /// A state file this user may not write is exit 2 before the run (SQLite would open it
    /// read-only without a word); `state show` still reads it. As root, the runner runs as
    /// `nobody` (setpriv), from a copy in a folder everyone may enter.
    @Test func aStateFileThatCannotBeWrittenIsRefusedButShown() async throws {
        let lab = try await SharedLab.get()
        // Under /tmp itself: the tests' own temporary folder may be one only its owner can enter.
        let base = URL(fileURLWithPath: "/tmp").appendingPathComponent("runner-read-only-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let state = folder.appendingPathComponent("state.db").path
        let plan = try plan(lab)
        let first = try await run([plan, "--state", state])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let runner = folder.appendingPathComponent("runner")
        try FileManager.default.copyItem(at: PackageExecutable.url("runner"), to: runner)
        // The plan and the lab's CA beside it, where `nobody` may read them.
        let ca = folder.appendingPathComponent("ca.pem").path
        try FileManager.default.copyItem(atPath: lab.caFile, toPath: ca)
        try String(contentsOfFile: plan, encoding: .utf8).replacingOccurrences(of: lab.caFile, with: ca)
            .write(toFile: folder.appendingPathComponent("plan.yaml").path, atomically: true, encoding: .utf8)
        for (path, mode) in [(state, 0o444), (ca, 0o444), (folder.appendingPathComponent("plan.yaml").path, 0o444),
                             (folder.path, 0o555), (base.path, 0o755)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        // Writable again before the folder goes (the defers run last to first).
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let asUser = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", runner.path] : [runner.path]
        let refused = try await PackageExecutable.runTool(
            asUser[0], Array(asUser.dropFirst()) + [folder.appendingPathComponent("plan.yaml").path, "--state", state, "--color", "never"])
        #expect(refused.status == 2 && refused.stdout.isEmpty, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr == "error: state file '\(state)': cannot be written (it, or its folder, is read-only for this user)\n",
            "\(refused.stderr)")
        let show = try await PackageExecutable.runTool(asUser[0], Array(asUser.dropFirst()) + ["state", "show", "--state", state])
        #expect(show.status == 0 && show.stdout.contains("retained  tencent  api.lab.test  -       127.0.0.2"), "\(show.stdout)\(show.stderr)")
    }

    @Test func aCorruptStateFileIsRefusedAndKept() async throws {
        let lab = try await SharedLab.get()
        let state = try LabPlans.temporaryDirectory().appendingPathComponent("corrupt.db").path
        let garbage = String(repeating: "garbage ", count: 1000)
        try garbage.write(toFile: state, atomically: true, encoding: .utf8)
        let output = try await run([try plan(lab), "--state", state])
        #expect(output.status == 2 && output.stdout.isEmpty, "\(output.stdout)")
        #expect(output.stderr.hasPrefix("error: state file '\(state)': not a SQLite database ("), "\(output.stderr)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == garbage)
        let show = try await stateCommand(["show", "--state", state + ".missing"])
        #expect(show.status == 2 && show.stderr == "error: state file '\(state).missing': no such file; a run with --state \(state).missing creates it\n")
    }

    /// A run killed (SIGKILL) while its request hangs has already committed the answer it
    /// recorded; the file stays usable.
    @Test func aKilledRunLosesNothingItRecorded() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: killed
            defaults: {ca: "{{ca}}", strategy: sni-resolve, timeout: 30s}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip=101.80.0.1", retain: 2h}
            scenarios:
              - {name: slow, domains: tencent, request: {url: "https://api.lab.test:{{https}}/delay/20000"}}
            """, lab: lab)
        let state = try LabPlans.temporaryDirectory().appendingPathComponent("killed.db").path
        let killed = try await PackageExecutable.run(
            "runner", [file, "--state", state], signal: ChildProcess.Signal(SIGKILL, .after(2)))
        #expect(killed.status == SIGKILL && killed.stdout.isEmpty, "killed before its result: \(killed.stdout)\(killed.stderr)")
        let show = try await stateCommand(["show", "--state", state])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("killed  tencent  api.lab.test  -       127.0.0.5"), "\(show.stdout)")
    }

    /// The guide's plan is a valid plan.
    @Test func theGuidesPlanChecks() async throws {
        let file = try GuidePlan.write("retire-edge.md")
        let check = try await PackageExecutable.run("runner", ["check", file])
        #expect(check.status == 0 && check.stdout == "\(file): ok (1 scenario)\n", "\(check.stdout)\(check.stderr)")
    }

    /// Two runs sharing the file at once both finish, and both recorded.
    @Test func overlappingRunsShareTheFile() async throws {
        let lab = try await SharedLab.get()
        let file = try plan(lab)
        let state = try LabPlans.temporaryDirectory().appendingPathComponent("shared.db").path
        async let one = run([file, "--state", state])
        async let two = run([file, "--state", state, "--var", "network=101.80.0.1"])
        let (a, b) = try await (one, two)
        #expect(a.status == 0 && b.status == 0, "\(a.stdout)\(a.stderr)\(b.stdout)\(b.stderr)")
        let show = try await stateCommand(["show", "--state", state])
        #expect(show.stdout.contains(" 127.0.0.2 ") && show.stdout.contains(" 127.0.0.5 "), "\(show.stdout)")
    }
}
