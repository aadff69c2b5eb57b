import Foundation
import Testing

@testable import RunnerReport

@Suite struct AtomicFileTests {
    /// A fresh directory per test, removed afterwards.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    @Test func writesThenReplacesLeavingOnlyTheFile() throws {
        try withDirectory { directory in
            let path = directory + "/report.xml"
            try AtomicFile.write(Data("first".utf8), to: path)
            #expect(FileManager.default.contents(atPath: path) == Data("first".utf8))
            try AtomicFile.write(Data("second, longer".utf8), to: path)
            #expect(FileManager.default.contents(atPath: path) == Data("second, longer".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.xml"])
        }
    }

    @Test func writesLargeAndEmptyData() throws {
        try withDirectory { directory in
            let big = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
            try AtomicFile.write(big, to: directory + "/big.json")
            #expect(FileManager.default.contents(atPath: directory + "/big.json") == big)
            try AtomicFile.write(Data(), to: directory + "/empty.json")
            #expect(FileManager.default.contents(atPath: directory + "/empty.json") == Data())
        }
    }

    @Test(arguments: [
        ("report.xml", ".", "./.report.xml."),
        ("out/report.xml", "out", "out/.report.xml."),
        ("/report.xml", "/", "/.report.xml."),
        ("/a/b/r.json", "/a/b", "/a/b/.r.json."),
    ])
    func theTemporaryFileSitsBesideTheTarget(path: String, directory: String, prefix: String) {
        let (dir, temporary) = AtomicFile.temporaryPath(for: path)
        #expect(dir == directory)
        #expect(temporary.hasPrefix(prefix))
        #expect(temporary.hasSuffix(".tmp"))
        #expect(AtomicFile.temporaryPath(for: path).temporary != temporary)
    }

    @Test func aMissingDirectoryIsAnErrorAndIsNotCreated() throws {
        try withDirectory { directory in
            let path = directory + "/missing/report.xml"
            let error = #expect(throws: ReportWriteError.self) { try AtomicFile.write(Data("x".utf8), to: path) }
            #expect(error?.description == "cannot write report '\(path)': No such file or directory")
            #expect(error?.path == path)
            #expect(!FileManager.default.fileExists(atPath: directory + "/missing"))
        }
    }

    @Test func aDirectoryInTheWayIsAnErrorAndLeavesNoTemporaryFile() throws {
        try withDirectory { directory in
            let path = directory + "/report.xml"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let error = #expect(throws: ReportWriteError.self) { try AtomicFile.write(Data("x".utf8), to: path) }
            #expect(error?.description == "cannot write report '\(path)': Is a directory")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.xml"])
        }
    }

    @Test func anEmptyPathIsAnError() {
        let error = #expect(throws: ReportWriteError.self) { try AtomicFile.write(Data(), to: "") }
        #expect(error?.description == "cannot write report '': the path is empty")
    }
}
