import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// What signals do to a run from outside: reports on disk are always whole, and a second
/// SIGINT ends a run whose graceful stop cannot finish.
@Suite("runner killed and interrupted", .timeLimit(.minutes(6)))
struct SignalTests {
    /// `count` quick scenarios, each one line on the console and one testcase in the reports.
    static func quickPlan(_ count: Int, lab: Lab, nameLength: Int = 60) throws -> String {
        let padding = String(repeating: "x", count: max(0, nameLength - 20))
        var yaml = """
            version: 1
            defaults: {ca: "{{ca}}", domains: lab, strategy: header-only}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:

            """
        for index in 0..<count {
            yaml += """
                  - name: quick \(index) \(padding)
                    request: {url: "http://api.lab.test:{{http}}/status/200"}

                """
        }
        return try LabPlans.write(yaml, lab: lab)
    }

    /// Kills the runner at random moments (SIGKILL, SIGTERM or SIGINT, seeded) while it runs and
    /// writes its reports; after every round, each report on disk is a complete document (the
    /// previous run's or the new one), never a torn one.
    @Test func reportsOnDiskAreAlwaysWholeWhenTheRunnerIsKilledAtRandom() async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.quickPlan(300, lab: lab)
        let directory = try LabPlans.temporaryDirectory()
        let junit = directory.appendingPathComponent("junit.xml").path
        let json = directory.appendingPathComponent("report.json").path
        let arguments = [plan, "-q", "--junit", junit, "--json", json]

        // A first, whole run: its reports are what a torn write would destroy.
        var started = Date()
        let first = try await PackageExecutable.run("runner", arguments)
        // How long a whole run takes, kept current: the machine's load changes while the test
        // runs, and kills timed against a stale figure would all land after the end.
        var runTime = Date().timeIntervalSince(started)
        #expect(first.status == 0, "\(first.stderr)")

        let seed = SeededGenerator.seed(0x4B11_0050, for: "kill at random")
        var random = SeededGenerator(seed: seed)
        var killedMidRun = 0
        for round in 1...50 {
            let signal = [SIGKILL, SIGKILL, SIGTERM, SIGINT].randomElement(using: &random) ?? SIGKILL
            // Anywhere in the run's later half, where the results come in and the reports are
            // written (one round in five anywhere from start-up).
            let earliest = Int.random(in: 0..<5, using: &random) == 0 ? 0 : runTime / 2
            let delay = Double.random(in: earliest...runTime, using: &random)
            // A reader polls both reports while the runner works, as a CI step or a dashboard
            // might: it must only ever see a whole document.
            let reader = ReportReader(paths: [junit, json])
            started = Date()
            let output = try await PackageExecutable.run("runner", arguments, signal: ChildProcess.Signal(signal, .after(delay)))
            let took = Date().timeIntervalSince(started)
            if output.status == 0 { runTime = took } else { runTime = max(runTime, took) }
            let torn = reader.stop()
            #expect(torn.isEmpty, "round \(round) (seed \(seed)): a reader saw \(torn.count) torn reads, first \(torn.first ?? "")")
            if output.status != 0 { killedMidRun += 1 }
            let context = "round \(round) (seed \(seed)): signal \(signal) after \(delay) s, exit \(output.status)"
            let xml = try await PackageExecutable.runTool("/usr/bin/xmllint", ["--noout", junit])
            #expect(xml.status == 0, "\(context): the JUnit report is not well-formed: \(xml.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: json))
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(document?["summary"] != nil, "\(context): the JSON report does not parse")
        }
        // The rounds must really have interrupted runs, or they proved nothing.
        #expect(killedMidRun >= 15, "only \(killedMidRun) of 50 rounds stopped the runner before it finished")
    }

    /// The first SIGINT asks for a graceful stop, which here cannot finish: nobody reads the
    /// console's pipe, so the runner is stuck writing to it. The second SIGINT ends it at once.
    @Test func aSecondSIGINTExitsAtOnce() async throws {
        let lab = try await SharedLab.get()
        // Lines of 2 KiB: a few dozen results fill the pipe, however slowly the lab answers.
        let plan = try Self.quickPlan(500, lab: lab, nameLength: 2_000)
        let runner = PackageExecutable.url("runner")
        try await offPool {
            // Standard output is a pipe nobody reads.
            let child = try RunningChild(runner, [plan, "--color", "never"], captureStdout: false)
            defer { child.send(SIGKILL) }
            // 1 MiB of lines is far more than a pipe holds: the runner blocks on the console.
            try #require(
                Self.waitUntilBlockedWriting(child.pid, deadline: 20),
                "the runner never blocked writing to its console: the test's premise does not hold")
            child.send(SIGINT)
            #expect(
                child.wait(deadline: .seconds(1)) == nil,
                "the runner ended on the first SIGINT: the test's premise does not hold")
            let secondSent = ContinuousClock.now
            child.send(SIGINT)
            let termination = child.wait(deadline: .seconds(5))
            let waited = ContinuousClock.now - secondSent
            // "At once" on a loaded machine: well under the 5 s a graceful stop could not finish in.
            #expect(waited < .seconds(2), "the second SIGINT took \(waited) to end the run")
            #expect(termination == .exited(130), "still running 5 s after the second SIGINT, or ended otherwise")
        }
    }

    /// Whether the process slept in a pipe write, as `/proc/PID/wchan` shows, within `deadline`
    /// seconds; where the kernel hides it (always "0"), false at the deadline. Blocks: call it off
    /// the pool.
    static func waitUntilBlockedWriting(_ pid: Int32, deadline: Double) -> Bool {
        let started = Date()
        while Date().timeIntervalSince(started) < deadline {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            if channel.contains("pipe_write") { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }
}

/// Reads report files in a loop on its own thread until stopped; records every read that was
/// not a whole document (a JUnit report ends with `</testsuites>`, a JSON one parses).
final class ReportReader: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var torn: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init(paths: [String]) {
        Thread { [self] in
            while lock.withLock({ running }) {
                for path in paths {
                    guard let data = FileManager.default.contents(atPath: path) else { continue }
                    if !Self.isWhole(data, path: path) {
                        lock.withLock { torn.append("\(path): \(data.count) bytes") }
                    }
                }
            }
            done.signal()
        }.start()
    }

    /// Stops reading; returns the torn reads seen.
    func stop() -> [String] {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { torn }
    }

    private static func isWhole(_ data: Data, path: String) -> Bool {
        if path.hasSuffix(".json") { return (try? JSONSerialization.jsonObject(with: data)) != nil }
        return String(decoding: data.suffix(64), as: UTF8.self).hasSuffix("</testsuites>\n")
    }
}
