import Foundation
import PlanFixtures
import RunnerResults
import Testing

@testable import RunnerReport

#if canImport(Glibc)
import Glibc
#endif

/// Report paths as users give them: files replaced atomically (through symlinks, at their
/// target), devices, FIFOs and descriptors written in place and never renamed over.
@Suite("Report targets", .timeLimit(.minutes(1)))
struct ReportTargetTests {
    /// A fresh directory per test, removed afterwards.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("target-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    private func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    @Test func aSymlinkedReportWritesItsTargetAndStaysALink() throws {
        try withDirectory { directory in
            let real = directory + "/reports/junit.xml"
            try FileManager.default.createDirectory(atPath: directory + "/reports", withIntermediateDirectories: false)
            try Data("old".utf8).write(to: URL(fileURLWithPath: real))
            // Relative, as `ln -s reports/junit.xml latest.xml` makes it.
            try FileManager.default.createSymbolicLink(atPath: directory + "/latest.xml", withDestinationPath: "reports/junit.xml")
            let target = try ReportTarget(path: directory + "/latest.xml")
            #expect(target.delivery == .atomic(finalPath: directory + "/reports/junit.xml"))
            try target.write(Data("new".utf8))
            #expect(fileType(directory + "/latest.xml") == S_IFLNK)
            #expect(FileManager.default.contents(atPath: real) == Data("new".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/reports") == ["junit.xml"])
        }
    }

    @Test func aDanglingSymlinkCreatesItsTarget() throws {
        try withDirectory { directory in
            try FileManager.default.createSymbolicLink(atPath: directory + "/out.json", withDestinationPath: directory + "/new.json")
            try ReportTarget(path: directory + "/out.json").write(Data("{}".utf8))
            #expect(fileType(directory + "/out.json") == S_IFLNK)
            #expect(FileManager.default.contents(atPath: directory + "/new.json") == Data("{}".utf8))
        }
    }

    @Test func devNullIsWrittenInPlaceAndStaysADevice() throws {
        let target = try ReportTarget(path: "/dev/null")
        #expect(target.delivery == .inPlace)
        try target.write(Data(repeating: 0x41, count: 300_000))
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test func devFullSaysTheDiskIsFull() throws {
        let target = try ReportTarget(path: "/dev/full")
        #expect(throws: ReportWriteError(path: "/dev/full", reason: "No space left on device")) {
            try target.write(Data("<testsuites/>".utf8))
        }
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test(arguments: [
        ("/dev/full/x.xml", "'/dev/full' is not a directory"),
        ("/dev/null/a/b.json", "'/dev/null' is not a directory"),
        ("/nonexistent-runner-folder/r.json", "directory '/nonexistent-runner-folder' does not exist"),
        ("/", "'/' is a directory: give a file name in it"),
        ("", "the path is empty"),
    ])
    func aPathThatCannotBeAReportSaysWhy(path: String, reason: String) {
        #expect(throws: ReportWriteError(path: path, reason: reason)) { try ReportTarget(path: path) }
    }

    @Test func aFIFOIsWrittenInPlaceForItsReader() throws {
        try withDirectory { directory in
            let fifo = directory + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            // Nobody reads it yet: an error now, not a hang at the end of the run.
            #expect(throws: ReportWriteError(path: fifo, reason: "'\(fifo)' is a FIFO that no process is reading")) {
                try ReportTarget(path: fifo)
            }
            // The reader copies the FIFO into a file, so neither side waits on a pipe to us.
            let copy = directory + "/read"
            let reader = try RunningChild(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec cat \"$0\" > \"$1\"", fifo, copy])
            defer { reader.send(SIGKILL) }
            // The reader opens the FIFO when it starts; wait for that (bounded). The target is
            // dropped right after writing: closing the last writer ends the reader's input.
            let document = Data(String(repeating: "<testcase/>\n", count: 20_000).utf8)
            let deadline = Date().addingTimeInterval(10)
            var written = false
            while !written, Date() < deadline {
                if let target = try? ReportTarget(path: fifo) {
                    try target.write(document)
                    written = true
                } else {
                    usleep(10_000)
                }
            }
            try #require(written, "cat never opened the FIFO")
            #expect(reader.wait(deadline: .seconds(10)) == .exited(0))
            #expect(FileManager.default.contents(atPath: copy) == document)
            #expect(fileType(fifo) == S_IFIFO)
        }
    }

    @Test func descriptorNamesAreTheDescriptors() {
        #expect(ReportTarget.inheritedDescriptor(named: "-") == 1)
        #expect(ReportTarget.inheritedDescriptor(named: "/dev/stdout") == 1)
        #expect(ReportTarget.inheritedDescriptor(named: "/dev/stderr") == 2)
        #expect(ReportTarget.inheritedDescriptor(named: "/dev/fd/63") == 63)
        #expect(ReportTarget.inheritedDescriptor(named: "/proc/self/fd/5") == 5)
        #expect(ReportTarget.inheritedDescriptor(named: "/proc/\(getpid())/fd/7") == 7)
        #expect(ReportTarget.inheritedDescriptor(named: "/dev/fd/x") == nil)
        #expect(ReportTarget.inheritedDescriptor(named: "./-") == nil)
        #expect(ReportTarget.namesStandardOutput("-") && ReportTarget.namesStandardOutput("/dev/fd/1"))
        #expect(!ReportTarget.namesStandardOutput("/dev/stderr"))
    }

    @Test func anInheritedDescriptorIsWrittenWhereItPoints() throws {
        try withDirectory { directory in
            let path = directory + "/captured"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(fd > 2)
            defer { close(fd) }
            let target = try ReportTarget(path: "/dev/fd/\(fd)")
            #expect(target.delivery == .inPlace && !target.isStandardOutput)
            try target.write(Data("via descriptor".utf8))
            #expect(FileManager.default.contents(atPath: path) == Data("via descriptor".utf8))
            #expect(throws: ReportWriteError(path: "/dev/fd/987", reason: "descriptor 987 is not open")) {
                try ReportTarget(path: "/dev/fd/987")
            }
        }
    }

    /// A report that streams (a FIFO, standard output) spools in the temporary folder, never
    /// beside the device (`/dev`) it writes to.
    @Test func aStreamedReportSpoolsInTheTemporaryFolder() throws {
        let target = try ReportTarget(path: "/dev/null")
        #expect(!target.spoolDirectory.hasPrefix("/dev"))
        let report = try JUnitReport(target: target, plans: [PlanIdentity(name: "p", file: "p.yaml")], redactor: Redactor(secrets: []))
        withExtendedLifetime(report) {}
    }
}
