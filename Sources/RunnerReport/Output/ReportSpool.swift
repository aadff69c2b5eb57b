import Foundation
import RunnerResults

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A report's rendered results, kept on disk while the run goes on and read back in plan order
/// when it ends. What stays in memory is a position, an offset and a length per result, so a
/// report costs the same few megabytes whether the run has a hundred results or a million.
final class ReportSpool {
    private struct Entry {
        var position: ResultPosition
        var offset: Int
        var length: Int
    }

    private let fd: Int32
    /// The report's path, for errors.
    private let path: String
    private var pending: [UInt8] = []
    private static let flushSize = 256 * 1024
    /// Bytes already in the file.
    private var flushed = 0
    private var entries: [Entry] = []
    /// Whether `entries` are in plan order (results finish out of order when jobs > 1).
    private var inOrder = true
    /// errno of the first write or read that failed.
    private var failure: Int32?

    /// A spool file beside `path` (the same file system the report will be written to),
    /// unlinked at once: its space comes back when the spool goes, even if the process dies.
    init(beside path: String) throws(ReportWriteError) {
        guard !path.isEmpty else { throw ReportWriteError(path: path, reason: "the path is empty") }
        let (_, temporary) = AtomicFile.temporaryPath(for: path)
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AtomicFile.failure(path, errno) }
        unlink(temporary)
        self.fd = fd
        self.path = path
        pending.reserveCapacity(Self.flushSize)
    }

    deinit {
        close(fd)
    }

    /// Keeps `fragment` as the result at `position`.
    func append(_ fragment: [UInt8], at position: ResultPosition) {
        if let last = entries.last, position < last.position { inOrder = false }
        entries.append(Entry(position: position, offset: flushed + pending.count, length: fragment.count))
        pending.append(contentsOf: fragment)
        if pending.count >= Self.flushSize { flush() }
    }

    /// Copies the fragments of plan `suite` into `output` in plan order, `separator` between
    /// two of them; returns how many there were. Suites are replayed in ascending order.
    func replay(suite: Int, separator: [UInt8], into output: inout FileOutput) throws(ReportWriteError) -> Int {
        flush()
        if !inOrder {
            entries.sort { $0.position < $1.position }
            inOrder = true
        }
        var index = firstEntry(ofSuiteAtLeast: suite)
        var buffer: [UInt8] = []
        var count = 0
        while index < entries.count, entries[index].position.suite == suite, failure == nil {
            let entry = entries[index]
            if count > 0 { output.write(separator) }
            if buffer.count < entry.length { buffer = [UInt8](repeating: 0, count: entry.length) }
            buffer.withUnsafeMutableBytes { read(into: $0, count: entry.length, at: entry.offset) }
            buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0.prefix(entry.length))) }
            count += 1
            index += 1
        }
        if let failure { throw AtomicFile.failure(path, failure) }
        return count
    }

    /// The first entry of `suite` or a later one (binary search; entries are in plan order).
    private func firstEntry(ofSuiteAtLeast suite: Int) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].position.suite < suite { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        if failure == nil { failure = pending.withUnsafeBytes { AtomicFile.writeAll($0, to: fd) } }
        flushed += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer, count: Int, at offset: Int) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < count, failure == nil {
            let got = pread(fd, base + done, count - done, off_t(offset + done))
            if got < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else if got == 0 {
                failure = EIO  // the file is shorter than what was written to it
            } else {
                done += got
            }
        }
    }
}
