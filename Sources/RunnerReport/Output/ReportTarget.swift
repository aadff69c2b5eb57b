import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report path leads, judged and opened once, before the run, the way curl and jq
/// users expect: a regular file (or a new one) is replaced atomically — through symlinks, at
/// their final target, so the link stays; anything else — standard output (`-`), an inherited
/// descriptor (`/dev/stdout`, `/dev/fd/N`, a shell's `>(jq …)`), a character device
/// (`/dev/null`), a FIFO — is written in place and never renamed over, which as root would
/// replace the device or pipe with a plain file.
public final class ReportTarget: @unchecked Sendable {
    /// How the document reaches the path.
    public enum Delivery: Sendable, Equatable {
        /// A temporary file beside `finalPath`, renamed over it once complete.
        case atomic(finalPath: String)
        /// Written, as a stream, to a descriptor opened (or duplicated) before the run.
        case inPlace
    }

    /// The path as the user gave it, for messages.
    public let path: String
    public let delivery: Delivery
    /// Whether the document goes to this process's standard output (`-`, `/dev/stdout`,
    /// `/dev/fd/1`): the console's own lines then move to standard error.
    public let isStandardOutput: Bool
    /// The descriptor an in-place target writes to (owned: closed in `deinit`); -1 otherwise.
    private let fd: Int32

    /// Judges `path` and, for an in-place target, opens it; throws a `ReportWriteError` that
    /// names the path and the cause (`'/dev/full' is not a directory`, `… is a directory`, a
    /// FIFO no process reads).
    public init(path: String) throws(ReportWriteError) {
        self.path = path
        guard !path.isEmpty else { throw ReportWriteError(path: path, reason: "the path is empty") }
        if let inherited = Self.inheritedDescriptor(named: path) {
            fd = try Self.duplicate(inherited, path: path)
            delivery = .inPlace
            isStandardOutput = inherited == STDOUT_FILENO
            return
        }
        let target = try Self.followLinks(path)
        isStandardOutput = Self.inheritedDescriptor(named: target) == STDOUT_FILENO
        if let inherited = Self.inheritedDescriptor(named: target) {
            // A link to /dev/stdout or /proc/self/fd/N: the descriptor, not a file by that name.
            fd = try Self.duplicate(inherited, path: path)
            delivery = .inPlace
            return
        }
        var status = stat()
        guard stat(target, &status) == 0 else {
            let code = errno
            guard code == ENOENT || code == ENOTDIR else { throw AtomicFile.failure(path, code) }
            // A new file, whose folders must all be there: said with the part that is wrong.
            if let reason = Self.folderProblem(of: target) { throw ReportWriteError(path: path, reason: reason) }
            guard code == ENOENT else { throw AtomicFile.failure(path, code) }
            fd = -1
            delivery = .atomic(finalPath: target)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            fd = -1
            delivery = .atomic(finalPath: target)
        case S_IFDIR:
            throw ReportWriteError(path: path, reason: "'\(path)' is a directory: give a file name in it")
        case S_IFBLK:
            throw ReportWriteError(path: path, reason: "'\(path)' is a block device: give a file")
        case S_IFIFO:
            fd = try Self.openFIFO(target, path: path)
            delivery = .inPlace
        default:
            // A character device (/dev/null, /dev/full, a terminal) or a socket.
            let opened = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard opened >= 0 else { throw AtomicFile.failure(path, errno) }
            fd = opened
            delivery = .inPlace
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The folder a report keeps its spool in while the run goes on: beside an atomic target
    /// (the same file system as the final rename), the temporary folder for a stream.
    var spoolDirectory: String {
        switch delivery {
        case .atomic(let finalPath): return AtomicFile.directory(of: finalPath)
        case .inPlace: return FileManager.default.temporaryDirectory.path
        }
    }

    /// Writes the whole document: atomically at the final path, or as a stream in place.
    /// Failing, it says why (`No space left on device` for `/dev/full`).
    func write(_ produce: (inout FileOutput) throws(ReportWriteError) -> Void) throws(ReportWriteError) {
        switch delivery {
        case .atomic(let finalPath):
            try AtomicFile.write(to: finalPath, reportedAs: path, produce)
        case .inPlace:
            var output = FileOutput(fd: fd)
            try produce(&output)
            output.flush()
            if let code = output.failure { throw AtomicFile.failure(path, code) }
        }
    }

    /// Writes `data` whole (see `write(_:)`).
    public func write(_ data: Data) throws(ReportWriteError) {
        try write { output in
            data.withUnsafeBytes { output.write($0) }
        }
    }

    /// Whether `path` names standard output the way `ReportTarget` reads it.
    public static func namesStandardOutput(_ path: String) -> Bool {
        inheritedDescriptor(named: path) == STDOUT_FILENO
    }

    // MARK: Judging a path

    /// The descriptor `path` stands for: `-` and `/dev/stdout` for 1, `/dev/stderr` for 2,
    /// `/dev/fd/N`, `/proc/self/fd/N` and `/proc/<this process>/fd/N` for N.
    static func inheritedDescriptor(named path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"]
        where path.hasPrefix(prefix) {
            let number = path.dropFirst(prefix.count)
            guard !number.isEmpty, number.allSatisfy(\.isASCII), let descriptor = Int32(number) else { return nil }
            return descriptor
        }
        return nil
    }

    /// The final target of `path`'s symlinks (the path itself when it is none), relative
    /// targets read against their link's folder.
    private static func followLinks(_ path: String) throws(ReportWriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { throw AtomicFile.failure(path, errno) }
            let link = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : AtomicFile.directory(of: current) + "/" + link
            if inheritedDescriptor(named: current) != nil { return current }
        }
        throw ReportWriteError(path: path, reason: "too many levels of symbolic links")
    }

    /// Why no file can be made at `path`: the first folder on the way that is missing or is
    /// not a folder (`'/dev/full' is not a directory`); nil when every folder is there, and for
    /// `-` and descriptor names.
    public static func folderProblem(of path: String) -> String? {
        guard inheritedDescriptor(named: path) == nil else { return nil }
        var folders: [String] = []
        var folder = AtomicFile.directory(of: path)
        while folder != "/" && folder != "." && !folders.contains(folder) {
            folders.append(folder)
            folder = AtomicFile.directory(of: folder)
        }
        for folder in folders.reversed() {
            var status = stat()
            guard stat(folder, &status) == 0 else { return "directory '\(folder)' does not exist" }
            guard status.st_mode & S_IFMT == S_IFDIR else { return "'\(folder)' is not a directory" }
        }
        return nil
    }

    /// A copy of `descriptor` (above the standard three, closed on exec), so that standard
    /// output can be pointed elsewhere while the report still reaches the original.
    private static func duplicate(_ descriptor: Int32, path: String) throws(ReportWriteError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw ReportWriteError(path: path, reason: "descriptor \(descriptor) is not open") }
        return copy
    }

    /// Opens a FIFO for writing without waiting for a reader: one that nobody reads is an
    /// error now, not a run that hangs at its end.
    private static func openFIFO(_ target: String, path: String) throws(ReportWriteError) -> Int32 {
        let opened = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else {
            let code = errno
            if code == ENXIO { throw ReportWriteError(path: path, reason: "'\(path)' is a FIFO that no process is reading") }
            throw AtomicFile.failure(path, code)
        }
        // Blocking from here on: a slow reader makes the writes wait, not fail.
        let flags = fcntl(opened, F_GETFL)
        if flags >= 0 { _ = fcntl(opened, F_SETFL, flags & ~O_NONBLOCK) }
        return opened
    }
}
