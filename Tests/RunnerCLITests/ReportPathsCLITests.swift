import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Report paths as users give them, end to end: `-` and `/dev/stdout` (the console moves to
/// standard error), a symlink (its target written, the link kept), a FIFO read by another
/// process, `/dev/null` (still a device afterwards), `/dev/full` (exit 3, the cause named).
@Suite("Report paths", .timeLimit(.minutes(3)))
struct ReportPathsCLITests {
    /// One scenario that passes against the lab.
    static let plan = """
        version: 1
        name: paths
        defaults: {ca: "{{ca}}", timeout: 15s}
        domains:
          lab:
            static: {api.lab.test: [127.0.0.2]}
        scenarios:
          - name: health
            domains: lab
            strategy: sni-resolve
            request: {url: "https://api.lab.test:{{https}}/echo"}
            expect: {status: 200}
        """

    private func run(_ arguments: [String]) async throws -> ProcessOutput {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write(Self.plan, lab: lab)
        return try await PackageExecutable.run("runner", [plan] + arguments)
    }

    private func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    @Test(arguments: ["-", "/dev/stdout", "/dev/fd/1"])
    func aReportOnStandardOutputMovesTheConsoleToStandardError(path: String) async throws {
        let output = try await run(["--junit", path])
        #expect(output.status == 0, "\(output.stderr)")
        // Standard output is the document alone: it parses, and no result line is in it.
        #expect(output.stdout.hasPrefix("<?xml"), "\(output.stdout)")
        #expect(!output.stdout.contains("PASS"))
        #expect(output.stdout.components(separatedBy: "<testcase ").count == 2, "\(output.stdout)")
        let file = try LabPlans.temporaryDirectory().appendingPathComponent("stdout.xml")
        try Data(output.stdout.utf8).write(to: file)
        let lint = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, file.path])
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(output.stderr.contains("PASS  health"), "\(output.stderr)")
        #expect(output.stderr.contains("1 passed"), "\(output.stderr)")
    }

    @Test func jsonToStandardOutputParses() async throws {
        let output = try await run(["--json", "-", "-q"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect((report["summary"] as? [String: Any])?["passed"] as? Int == 1)
    }

    @Test func twoReportsCannotBothTakeStandardOutput() async throws {
        let output = try await run(["--junit", "-", "--json", "/dev/stdout"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("only one report can go to standard output; '-' and '/dev/stdout' both name it"), "\(output.stderr)")
    }

    /// The run passed, but its report is lost: exit 3, not 0 or 1, with the path and the cause.
    @Test func aReportThatCannotBeWrittenAfterTheRunIsExitThree() async throws {
        let directory = try LabPlans.temporaryDirectory()
        let junit = directory.appendingPathComponent("junit.xml").path
        let output = try await run(["--json", "/dev/full", "--junit", junit])
        #expect(output.status == 3, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stderr.contains("error: cannot write report '/dev/full': No space left on device"), "\(output.stderr)")
        #expect(output.stdout.contains("1 passed"), "\(output.stdout)")
        // The other report is written all the same.
        #expect(FileManager.default.fileExists(atPath: junit))
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test func aReportUnderAFileSaysItIsNotADirectory() async throws {
        let output = try await run(["--junit", "/dev/full/x.xml"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot write report '/dev/full/x.xml': '/dev/full' is not a directory"), "\(output.stderr)")
    }

    @Test func devNullStaysADevice() async throws {
        let output = try await run(["--json", "/dev/null", "--junit", "/dev/null", "--html", "/dev/null"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)
        // Nothing was left in /dev by a spool or a temporary file.
        let strays = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
        #expect(strays == [])
    }

    @Test func aSymlinkedReportKeepsItsLink() async throws {
        let directory = try LabPlans.temporaryDirectory()
        let reports = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: false)
        let link = directory.appendingPathComponent("latest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "reports/run.json")
        let output = try await run(["--json", link])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(fileType(link) == S_IFLNK)
        let written = try Data(contentsOf: reports.appendingPathComponent("run.json"))
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path) == ["run.json"])
    }

    @Test func aFIFOReadByAnotherProcessGetsTheWholeReport() async throws {
        let directory = try LabPlans.temporaryDirectory()
        let fifo = directory.appendingPathComponent("junit.fifo").path
        let copy = directory.appendingPathComponent("copy.xml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try RunningChild(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec cat \"$0\" > \"$1\"", fifo, copy])
        defer { reader.send(SIGKILL) }
        // cat opens the FIFO when it starts: until then there is no reader (bounded wait).
        var output = try await run(["--junit", fifo])
        let deadline = Date().addingTimeInterval(10)
        while output.status == 2, output.stderr.contains("no process is reading"), Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            output = try await run(["--junit", fifo])
        }
        #expect(output.status == 0, "\(output.stderr)")
        #expect(reader.wait(deadline: .seconds(10)) == .exited(0))
        let text = try String(contentsOfFile: copy, encoding: .utf8)
        #expect(text.hasPrefix("<?xml") && text.contains("</testsuites>"), "\(text)")
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aFIFONobodyReadsIsAnErrorBeforeTheRun() async throws {
        let fifo = try LabPlans.temporaryDirectory().appendingPathComponent("lonely.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = try await run(["--json", fifo])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot write report '\(fifo)': '\(fifo)' is a FIFO that no process is reading"), "\(output.stderr)")
        #expect(!output.stdout.contains("PASS"), "nothing ran: \(output.stdout)")
    }
}
