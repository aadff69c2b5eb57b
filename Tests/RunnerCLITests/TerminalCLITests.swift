import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// At the terminal: a folder of plans, and the live progress line — drawn under a real
/// pseudo-terminal (util-linux `script`), never in a pipe or a file under `auto`.
@Suite("at the terminal", .timeLimit(.minutes(3)))
struct TerminalCLITests {
    /// Carriage return and erase-line: how the progress line is removed.
    static let erase = "\r\u{1B}[2K"

    /// A plan of `count` scenarios that each take `milliseconds` at the lab: with `--jobs 1`,
    /// long enough for the line to be drawn several times.
    static func slowPlan(lab: Lab, count: Int = 4, milliseconds: Int = 300, failing: Bool = false) throws -> String {
        let scenarios = (1...count).map { index in
            """
              - name: slow \(index)
                request: {url: "https://api.lab.test:{{https}}/delay/\(milliseconds)"}
                expect: {status: \(failing && index == count ? 201 : 200)}
            """
        }.joined(separator: "\n")
        return try LabPlans.write("""
            version: 1
            name: slow
            defaults:
              ca: "{{ca}}"
              domains: lab
            domains:
              lab: {static: {api.lab.test: [127.0.0.2]}}
            scenarios:
            \(scenarios)
            """, lab: lab)
    }

    /// `word` quoted for sh.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `command` (sh) under a pseudo-terminal; returns what the terminal received.
    static func underTerminal(_ command: String, in directory: URL, deadline: Duration = .seconds(60)) async throws -> (status: Int32, screen: String) {
        let typescript = directory.appendingPathComponent("typescript-\(UUID().uuidString)").path
        let output = try await PackageExecutable.runTool(
            "/usr/bin/script", ["-q", "-f", "-e", "-c", command, typescript], deadline: deadline)
        let screen = try String(contentsOfFile: typescript, encoding: .utf8)
        return (output.status, screen)
    }

    /// The progress lines drawn: each `[done/total] …` the terminal was sent.
    static func progressLines(_ screen: String) -> [String] {
        screen.components(separatedBy: erase).dropFirst().compactMap { piece in
            guard piece.hasPrefix("[") else { return nil }
            return String(piece.prefix { $0 != "\r" && $0 != "\n" })
        }
    }

    /// What is left once the terminal has applied every erase: the text after the last one
    /// must not be a progress line.
    static func endsClean(_ screen: String) -> Bool {
        guard let last = screen.components(separatedBy: erase).last else { return true }
        return !last.hasPrefix("[")
    }

    @Test func theLineIsDrawnOnATerminalAndErasedAtTheEnd() async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.slowPlan(lab: lab, failing: true)
        let directory = try LabPlans.temporaryDirectory()
        let runner = PackageExecutable.url("runner").path
        let (status, screen) = try await Self.underTerminal(
            "NO_COLOR=1 \(Self.quoted(runner)) \(Self.quoted(plan)) --jobs 1", in: directory)
        #expect(status == 1, "\(screen)")
        let lines = Self.progressLines(screen)
        #expect(lines.count >= 2, "\(screen.debugDescription)")
        #expect(lines.contains { $0.range(of: #"^\[[1-3]/4\] [1-3] passed, 0 failed, 0 errors · [0-9.]+/s · [0-9]+s left$"#, options: .regularExpression) != nil }, "\(lines)")
        #expect(!screen.contains("\u{1B}[3"), "NO_COLOR: no colour")
        #expect(Self.endsClean(screen), "\(screen.debugDescription)")
        // The results and the summary are all there, each line whole.
        for index in 1...3 { #expect(screen.contains("PASS  slow \(index) [sni-resolve 127.0.0.2]  200  ")) }
        #expect(screen.contains("FAIL  slow 4 [sni-resolve 127.0.0.2]  200  "))
        #expect(screen.contains("3 passed, 1 failed, 0 errors\r\n"))
    }

    /// With standard output in a file, the file holds exactly what a run without the line
    /// writes; the line goes to the terminal, on standard error.
    @Test func standardOutputIsTheSameBytesWithTheLine() async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.slowPlan(lab: lab, count: 3)
        let directory = try LabPlans.temporaryDirectory()
        let runner = PackageExecutable.url("runner").path
        let withLine = directory.appendingPathComponent("with.txt").path
        let (status, screen) = try await Self.underTerminal(
            "\(Self.quoted(runner)) \(Self.quoted(plan)) --jobs 1 --color never > \(Self.quoted(withLine))", in: directory)
        #expect(status == 0, "\(screen)")
        #expect(!Self.progressLines(screen).isEmpty, "\(screen.debugDescription)")
        #expect(Self.endsClean(screen))
        let without = try await PackageExecutable.run("runner", [plan, "--jobs", "1", "--color", "never"])
        let written = try String(contentsOfFile: withLine, encoding: .utf8)
        #expect(!written.contains("\u{1B}") && !written.contains("\r"))
        #expect(Self.normalized(written) == Self.normalized(without.stdout), "\(written)\n---\n\(without.stdout)")
        #expect(without.stderr.isEmpty, "auto draws nothing when standard error is not a terminal: \(without.stderr)")
    }

    /// Durations differ from run to run; nothing else may.
    static func normalized(_ output: String) -> String {
        output.replacingOccurrences(of: #"[0-9.]+ (ms|s)\b"#, with: "T", options: .regularExpression)
    }

    @Test func quietAndNeverDrawNothingAndAlwaysDrawsInAFile() async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.slowPlan(lab: lab, count: 2)
        let directory = try LabPlans.temporaryDirectory()
        let runner = PackageExecutable.url("runner").path
        for flags in ["--quiet", "--progress never"] {
            let (_, screen) = try await Self.underTerminal("\(Self.quoted(runner)) \(Self.quoted(plan)) --jobs 1 \(flags)", in: directory)
            #expect(Self.progressLines(screen).isEmpty, "\(flags): \(screen.debugDescription)")
        }
        let always = try await PackageExecutable.run("runner", [plan, "--jobs", "1", "--progress", "always"])
        #expect(always.status == 0)
        #expect(always.stderr.hasPrefix(Self.erase + "["), "\(always.stderr.debugDescription)")
        #expect(always.stderr.hasSuffix(Self.erase), "\(always.stderr.debugDescription)")
        #expect(!always.stdout.contains("\u{1B}"))
    }

    @Test func colourAlwaysColoursTheCounts() async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.slowPlan(lab: lab, count: 4)
        let directory = try LabPlans.temporaryDirectory()
        let runner = PackageExecutable.url("runner").path
        let (status, screen) = try await Self.underTerminal(
            "\(Self.quoted(runner)) \(Self.quoted(plan)) --jobs 1 --color always", in: directory)
        #expect(status == 0)
        #expect(Self.progressLines(screen).contains { $0.contains("\u{1B}[32m1 passed\u{1B}[0m") || $0.contains("\u{1B}[32m2 passed\u{1B}[0m") },
                "\(screen.debugDescription)")
        #expect(Self.endsClean(screen))
    }

    /// SIGINT or SIGTERM mid-run: the run stops, reports what finished, and leaves no line behind.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptLeavesTheTerminalClean(signal: Int32, status expected: Int32) async throws {
        let lab = try await SharedLab.get()
        let plan = try Self.slowPlan(lab: lab, count: 6, milliseconds: 2000)
        let directory = try LabPlans.temporaryDirectory()
        let runner = PackageExecutable.url("runner").path
        let pidFile = directory.appendingPathComponent("pid").path
        let command = "echo $$ > \(Self.quoted(pidFile)); exec \(Self.quoted(runner)) \(Self.quoted(plan)) --jobs 2"
        let sender = Task {
            func pid() -> Int32? {
                (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            let started = await eventually(within: .seconds(20)) { pid() != nil }
            guard started, let pid = pid() else { throw CancellationError() }
            // The line is drawn every 125 ms; no result comes before 2 s.
            try await Task.sleep(for: .milliseconds(700))
            kill(pid, signal)
        }
        let (status, screen) = try await Self.underTerminal(command, in: directory)
        try await sender.value
        #expect(status == expected, "\(screen.debugDescription)")
        #expect(Self.progressLines(screen).contains { $0.hasPrefix("[0/~6] 0 passed, 0 failed, 0 errors") }, "\(screen.debugDescription)")
        #expect(Self.endsClean(screen), "\(screen.debugDescription)")
        #expect(screen.contains("Interrupted by SIG"))
    }

    @Test func aFolderStandsForItsPlansInNameOrder() async throws {
        let lab = try await SharedLab.get()
        let folder = try LabPlans.temporaryDirectory()
        for (file, name) in [("b-second.yml", "second"), ("a-first.yaml", "first")] {
            let plan = try LabPlans.write("""
                version: 1
                name: \(name)
                scenarios:
                  - name: \(name) up
                    strategy: header-only
                    domains: lab
                    request: {url: "http://api.lab.test:{{http}}/status/200"}
                    expect: {status: 200}
                domains:
                  lab: {static: {api.lab.test: [127.0.0.2]}}
                """, lab: lab)
            try FileManager.default.moveItem(atPath: plan, toPath: folder.appendingPathComponent(file).path)
        }
        try "not a plan".write(to: folder.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("old"), withIntermediateDirectories: true)
        try "version: 0\n".write(to: folder.appendingPathComponent("old/broken.yaml"), atomically: true, encoding: .utf8)

        let check = try await PackageExecutable.run("runner", ["check", folder.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "\(folder.path)/a-first.yaml: ok (1 scenario)\n\(folder.path)/b-second.yml: ok (1 scenario)\n")

        // Plans run side by side (lines come as results finish); the reports keep plan order.
        let json = folder.appendingPathComponent("old/report.json").path
        let run = try await PackageExecutable.run("runner", [folder.path, "--color", "never", "--json", json])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("PASS  first up") && run.stdout.contains("PASS  second up"))
        #expect(run.stdout.contains("Ran 2 results from 2 plans in "))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let suites = try #require(report["suites"] as? [[String: Any]])
        #expect(suites.compactMap { $0["name"] as? String } == ["first", "second"])

        let empty = try LabPlans.temporaryDirectory()
        let none = try await PackageExecutable.run("runner", [empty.path])
        #expect(none.status == 2)
        #expect(none.stderr == "error: plan folder '\(empty.path)' holds no plan: a plan is a *.yaml or *.yml file directly in it (subfolders are not read)\n")
        #expect(none.stdout.isEmpty)
    }
}
