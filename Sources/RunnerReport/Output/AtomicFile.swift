import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A report file could not be written.
public struct ReportWriteError: Error, Equatable, CustomStringConvertible {
    /// The report path as the user gave it.
    public var path: String
    /// Why, e.g. `No such file or directory`.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write report '\(path)': \(reason)" }
}

/// Writes report files so a reader (a CI step, a dashboard) sees the old file or the complete
/// new one, never a half-written one.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `path`, flushes it to disk, then renames it over
    /// `path`. Creates no directories; on failure leaves nothing behind.
    public static func write(_ data: Data, to path: String) throws(ReportWriteError) {
        try write(to: path) { output in
            data.withUnsafeBytes { output.write($0) }
        }
    }

    /// As `write(_:to:)`, for a document written in pieces: `produce` writes them into the
    /// temporary file, which is renamed over `path` only once all of it is on disk; should
    /// `produce` throw, the temporary file goes and the error is passed on.
    /// Errors name `shown` (the path as the user gave it, when `path` is a link's target).
    static func write(
        to path: String, reportedAs shown: String? = nil, _ produce: (inout FileOutput) throws(ReportWriteError) -> Void
    ) throws(ReportWriteError) {
        guard !path.isEmpty else { throw ReportWriteError(path: shown ?? path, reason: "the path is empty") }
        let (directory, temporary) = temporaryPath(for: path)
        let fail = { (code: Int32) in Self.failure(shown ?? path, code) }

        // 0o666 minus the umask: the permissions any newly created file would get.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw fail(errno) }

        var output = FileOutput(fd: fd)
        do throws(ReportWriteError) {
            try produce(&output)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        output.flush()
        if let code = output.failure ?? (fsync(fd) == 0 ? nil : errno) {
            close(fd)
            unlink(temporary)
            throw fail(code)
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw fail(code)
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw fail(code)
        }
        syncDirectory(directory)
    }

    /// Fails as `write` would when no file can be created beside `path` (no such directory, no
    /// permission), so a report that keeps nothing on disk during the run is still known to be
    /// writable before it starts. Leaves nothing behind.
    static func checkWritable(beside path: String, reportedAs shown: String? = nil) throws(ReportWriteError) {
        guard !path.isEmpty else { throw ReportWriteError(path: shown ?? path, reason: "the path is empty") }
        let (_, temporary) = temporaryPath(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(shown ?? path, errno) }
        close(fd)
        unlink(temporary)
    }

    /// The target's directory and a fresh hidden name in it: the same directory, because
    /// rename(2) is only atomic within one file system.
    static func temporaryPath(for path: String) -> (directory: String, temporary: String) {
        temporaryPath(named: name(of: path), in: directory(of: path))
    }

    /// A fresh hidden name for a file called `name` in `directory`.
    static func temporaryPath(named name: String, in directory: String) -> (directory: String, temporary: String) {
        let separator = directory.hasSuffix("/") ? "" : "/"
        return (directory, "\(directory)\(separator).\(name).\(UUID().uuidString).tmp")
    }

    /// The folder `path` is in: `.` for a bare name, `/` at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last part of `path`.
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Writes every byte, retrying short writes and interruptions; returns errno on failure.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(fd, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// `write(2)`, named apart from `AtomicFile.write`.
    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #elseif canImport(Musl)
        Musl.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    /// Makes the rename itself durable. Best effort: the file is complete either way.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func failure(_ path: String, _ code: Int32) -> ReportWriteError {
        ReportWriteError(path: path, reason: reason(code))
    }

    /// The system's words for `code` (`No space left on device`).
    static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
