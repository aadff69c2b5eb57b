import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The state file on a disk that fills up (issue 42), as an operator meets it: a 256 KiB tmpfs
/// mounted in a private mount namespace (`unshare -m`, so nothing of the machine's mounts
/// changes), filled with `dd` after a first run, while the lab's HTTPDNS replica answers a new
/// address. The run that cannot record says so and exits 3; `serve` counts it, turns unready,
/// and records again once space is freed; the file passes `PRAGMA quick_check` throughout
/// (Python's sqlite3, another reader of the file).
@Suite("A state file on a full disk", .timeLimit(.minutes(3)))
struct StateFullDiskTests {
    /// The lab's DNSPod replica, its answer chosen by the `network` variable: gd-mobile's
    /// network is sent to the primary edge, sh-telecom's to the replica (both up). A map and a
    /// scenario for each of `maps`, each retaining for an hour.
    func plan(_ lab: Lab, network: String, in folder: URL, maps: [String] = ["tencent"]) throws -> String {
        let path = folder.appendingPathComponent("plan.yaml").path
        let domains = maps.map { map in
            "  \(map):\n    httpdns: {format: dnspod, url: \"http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip=${network}\", retain: 1h}"
        }
        let scenarios = maps.map { map in
            "  - {name: api-\(map), domains: \(map), request: {url: \"https://api.lab.test:{{https}}/echo\"}, expect: {status: 200}}"
        }
        let text = """
            version: 1
            name: retained
            vars: {network: \(network)}
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            domains:
            \(domains.joined(separator: "\n"))
            scenarios:
            \(scenarios.joined(separator: "\n"))
            """
        try LabPlans.fill(text, lab: lab).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let gdMobile = "120.196.0.1"
    static let shTelecom = "101.80.0.1"

    /// Root, which a mount namespace of one's own needs (CI runs as root).
    func requireRoot() -> Bool {
        guard geteuid() == 0 else {
            Issue.record("a tmpfs in a private mount namespace needs root (CI runs the tests as root)")
            return false
        }
        return true
    }

    /// A shell command printing what `pragma quick_check` says of the state file at `path`, and
    /// its application_id (the file is opened as it is, never created).
    static func quickCheck(_ path: String) -> String {
        "python3 -c 'import sqlite3,sys; db = sqlite3.connect(\"file:\" + sys.argv[1] + \"?mode=rw\", uri=True); "
            + "print(db.execute(\"pragma quick_check\").fetchone()[0], db.execute(\"pragma application_id\").fetchone()[0])' \"\(path)\""
    }

    /// What `quickCheck` prints of a valid runner state file (its application_id is `RUNR`).
    static let valid = "ok \(0x5255_4E52)\n"

    @Test func aRunThatCannotRecordItsAnswersExitsThreeAndTheFileStaysValid() async throws {
        guard requireRoot() else { return }
        let lab = try await SharedLab.get()
        let folder = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = folder.appendingPathComponent("disk")
        let out = folder.appendingPathComponent("out")
        for made in [disk, out] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        // Two maps: the second map's first answer reads the file after the first's write failed
        // (a read that once took the failure for itself, leaving the run silent).
        let planFile = try plan(lab, network: Self.gdMobile, in: folder, maps: ["tencent", "mirror"])
        let state = disk.appendingPathComponent("state.db").path
        // Each step's stdout, stderr and status land in out/ (outside the tmpfs, which goes
        // with the namespace).
        let script = """
            set -u
            mount -t tmpfs -o size=256k tmpfs '\(disk.path)' || exit 90
            step() { name=$1; shift; "$@" >'\(out.path)'/$name.out 2>'\(out.path)'/$name.err; echo $? >'\(out.path)'/$name.status; }
            runner='\(PackageExecutable.url("runner").path)'
            step first "$runner" '\(planFile)' --state '\(state)' --color never
            dd if=/dev/zero of='\(disk.path)/fill' bs=4k 2>/dev/null
            step full "$runner" '\(planFile)' --state '\(state)' --color never --jobs 1 --var network=\(Self.shTelecom) \
                --junit '\(out.path)/full.xml' --json '\(out.path)/full.json' --metrics '\(out.path)/full.prom'
            step full-show "$runner" state show --state '\(state)'
            step full-check \(Self.quickCheck(state))
            rm '\(disk.path)/fill'
            step freed "$runner" '\(planFile)' --state '\(state)' --color never --var network=\(Self.shTelecom)
            step freed-show "$runner" state show --state '\(state)'
            step freed-check \(Self.quickCheck(state))
            """
        let ran = try await PackageExecutable.runTool(
            "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", script], deadline: .seconds(120))
        #expect(ran.status == 0, "the script: \(ran.stdout)\(ran.stderr)")
        func step(_ name: String) throws -> ProcessOutput {
            func read(_ suffix: String) throws -> String {
                try String(contentsOf: out.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)
            }
            return ProcessOutput(
                status: Int32(try read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                stdout: try read("out"), stderr: try read("err"))
        }

        let first = try step("first")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // The disk full: every check passes (the replica, and the primary retained), yet the
        // run exits 3 naming the file, the answer and SQLite's reason.
        let full = try step("full")
        #expect(full.status == 3, "\(full.stdout)\(full.stderr)")
        #expect(full.stdout.contains("PASS  api-mirror [sni-resolve 127.0.0.5]") && full.stdout.contains("4 passed, 0 failed, 0 errors"),
            "\(full.stdout)")
        let said = "state file '\(state)' did not record 2 answers (tencent api.lab.test, mirror api.lab.test): "
            + "the disk is full (database or disk is full)"
        #expect(full.stderr.contains("error: \(said); the next run will not know of the addresses these answers returned"), "\(full.stderr)")
        #expect(full.stdout.contains("STATE NOT RECORDED: \(said)"), "\(full.stdout)")
        // The reports say it too.
        let junit = try String(contentsOf: out.appendingPathComponent("full.xml"), encoding: .utf8)
        #expect(junit.contains(#"<property name="state.file" value="\#(state)"/>"#), "\(junit)")
        #expect(junit.contains(#"<property name="state.not_recorded" value="state file &apos;\#(state)&apos; did not record 2 answers (tencent api.lab.test, mirror api.lab.test): the disk is full"#)
            || junit.contains(#"<property name="state.not_recorded" value="state file '\#(state)' did not record 2 answers (tencent api.lab.test, mirror api.lab.test): the disk is full"#),
            "\(junit)")
        let report = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("full.json"))) as? [String: Any])
        let recorded = try #require((report["runner"] as? [String: Any])?["state"] as? [String: Any])
        #expect(recorded["file"] as? String == state && recorded["recorded"] as? Bool == false, "\(recorded)")
        #expect(recorded["problems"] as? [String] == ["the disk is full (database or disk is full)"], "\(recorded)")
        let answers = try #require(recorded["not_recorded"] as? [[String: Any]])
        #expect(answers.map { $0["map"] as? String } == ["tencent", "mirror"], "\(answers)")
        #expect(answers.first?["host"] as? String == "api.lab.test" && answers.first?["plan"] as? String == "retained"
            && answers.first?["client"] is NSNull, "\(answers)")
        let metrics = try String(contentsOf: out.appendingPathComponent("full.prom"), encoding: .utf8)
        #expect(metrics.contains("\nrunner_state_write_failures_total 1\n"), "\(metrics)")
        #expect(!metrics.contains("runner_state_last_write_success_timestamp_seconds "), "no success to date")

        // Nothing half-written: the file is valid and holds the first run's answer alone.
        let fullCheck = try step("full-check")
        #expect(fullCheck.stdout == Self.valid, "\(fullCheck)")
        let fullShow = try step("full-show")
        #expect(fullShow.status == 0 && fullShow.stdout.contains("127.0.0.2") && !fullShow.stdout.contains("127.0.0.5"), "\(fullShow.stdout)")
        #expect(fullShow.stdout.contains("mirror"), "both maps' first answers: \(fullShow.stdout)")

        // Space freed: the next run records the answer the full disk lost, and exits 0.
        let freed = try step("freed")
        #expect(freed.status == 0 && !freed.stderr.contains("did not record"), "\(freed.stdout)\(freed.stderr)")
        #expect(try step("freed-check").stdout == Self.valid)
        let freedShow = try step("freed-show")
        let rows = freedShow.stdout.split(separator: "\n").filter { $0.contains("127.0.0.5") }
        #expect(rows.count == 2 && rows.contains { $0.contains("mirror") } && rows.contains { $0.contains("tencent") }, "\(freedShow.stdout)")
    }

    /// `serve` on the same disk: a cycle that cannot record is logged once, counted, and turns
    /// `/-/ready` 503 while checking goes on; freed, the next cycle records again and says so.
    /// The test reaches the namespace's tmpfs with `nsenter` into the serve process's mount
    /// namespace (not through `/proc/PID/root`: SQLite resolves that link to this namespace's path).
    @Test func serveCountsTheFailureTurnsUnreadyAndRecoversWhenSpaceReturns() async throws {
        guard requireRoot() else { return }
        let lab = try await SharedLab.get()
        let folder = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let planFile = try plan(lab, network: Self.gdMobile, in: folder)
        let state = disk.appendingPathComponent("state.db").path
        let runner = PackageExecutable.url("runner").path
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // unshare and bash exec in place: the child is `runner serve` itself.
        let child = try RunningChild(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["--mount", "--propagation", "private", "/bin/bash", "-c",
             "mount -t tmpfs -o size=256k tmpfs '\(disk.path)' && exec '\(runner)' serve '\(planFile)' --state '\(state)' "
                + "--every 1s --listen 127.0.0.1:0"],
            environment: environment)
        let output = ChildOutput(child.stderr)
        defer {
            child.send(SIGTERM)
            if child.wait(deadline: .seconds(10)) == nil { child.send(SIGKILL) }
        }
        func waitFor(_ text: String, times: Int = 1) async throws {
            let found = await eventually(within: .seconds(60)) { output.text().components(separatedBy: text).count - 1 >= times }
            if !found {
                Issue.record("no '\(text)' (\(times)×); stderr:\n\(output.text())")
                throw CancellationError()
            }
        }
        try await waitFor("listening on http://127.0.0.1:")
        let port = try #require(Int(output.text().components(separatedBy: "listening on http://127.0.0.1:")[1].prefix { $0.isNumber }))
        try await waitFor("serve: cycle 1 done")
        #expect(try await ServeTests.request(port, "/-/ready").status == 200)
        /// Runs `command` in serve's mount namespace, where the tmpfs is.
        func inside(_ command: String) async throws -> ProcessOutput {
            try await PackageExecutable.runTool("/usr/bin/nsenter", ["--target", String(child.pid), "--mount", "/bin/bash", "-c", command])
        }

        // The disk fills; the service now answers a new address (a reload to sh-telecom's network).
        let filled = try await inside("dd if=/dev/zero of='\(disk.path)/fill' bs=4k")
        #expect(filled.stderr.contains("No space left on device"), "\(filled.stderr)")
        try planText(planFile).replacingOccurrences(of: Self.gdMobile, with: Self.shTelecom)
            .write(toFile: planFile, atomically: true, encoding: .utf8)
        child.send(SIGHUP)
        try await waitFor("serve: reloaded 1 plan")
        let said = "state file '\(state)' did not record 1 answer (tencent api.lab.test): the disk is full (database or disk is full)"
        try await waitFor("serve: error: \(said); the next cycle tries again")
        let notReady = try await ServeTests.request(port, "/-/ready")
        #expect(notReady.status == 503 && notReady.body == "Not ready: the last cycle's \(said).\n", "\(notReady)")
        // It keeps checking: the replica's result is in the cycle that could not record. That cycle
        // logs its state error before its reports are published, so a scrape right after the line
        // may still show the cycle before; the published one comes within the deadline.
        let replica = #"probe_success{plan="retained",scenario="api-tencent",strategy="sni-resolve",ip="127.0.0.5"} 1"#
        var failing = try await ServeTests.request(port, "/metrics").body
        let publishedBy = ContinuousClock.now.advanced(by: .seconds(30))
        while !failing.contains(replica) && ContinuousClock.now < publishedBy {
            try await Task.sleep(for: .milliseconds(100))
            failing = try await ServeTests.request(port, "/metrics").body
        }
        #expect(failing.contains(replica), "\(failing)")
        let failures = try #require(Self.value(of: "runner_state_write_failures_total", in: failing))
        #expect(failures >= 1, "\(failing)")
        let lastSuccess = try #require(Self.value(of: "runner_state_last_write_success_timestamp_seconds", in: failing))
        // Once per cycle, not per answer: two failed cycles, two lines.
        try await waitFor("serve: error: \(said)", times: 2)
        #expect(output.text().components(separatedBy: "serve: error: ").count - 1 == output.text().components(separatedBy: said).count - 1)
        #expect(try await inside(Self.quickCheck(state)).stdout == Self.valid)

        // Space returns: the next cycle records the answer and says so; ready again.
        #expect(try await inside("rm '\(disk.path)/fill'").status == 0)
        try await waitFor("serve: state file '\(state)' records again: this cycle's answers are in it")
        #expect(try await ServeTests.request(port, "/-/ready").status == 200)
        let recovered = try await ServeTests.request(port, "/metrics").body
        #expect(try #require(Self.value(of: "runner_state_last_write_success_timestamp_seconds", in: recovered)) > lastSuccess)
        #expect(try #require(Self.value(of: "runner_state_write_failures_total", in: recovered)) >= failures)
        let shown = try await inside("'\(runner)' state show --state '\(state)'")
        #expect(shown.stdout.contains("127.0.0.2") && shown.stdout.contains("127.0.0.5"), "\(shown.stdout)\(shown.stderr)")
        #expect(try await inside(Self.quickCheck(state)).stdout == Self.valid)
    }

    func planText(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The value of the unlabelled series `name` in an exposition.
    static func value(of name: String, in exposition: String) -> Double? {
        exposition.split(separator: "\n").lazy.compactMap { line -> Double? in
            guard line.hasPrefix(name + " ") else { return nil }
            return Double(line.dropFirst(name.count + 1))
        }.first
    }
}
