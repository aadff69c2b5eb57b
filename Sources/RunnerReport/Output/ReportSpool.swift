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
    // What a result's append touches has its dynamic exclusivity checks off (five a result,
    // ~65 instructions each): a spool is used by its report alone, one call at a time, and a
    // render closure is handed the bytes, not the spool.
    @exclusivity(unchecked) private var pending = ByteBuffer(capacity: ReportSpool.flushSize + 64 * 1024)
    private static let flushSize = 256 * 1024
    /// Bytes already in the file.
    @exclusivity(unchecked) private var flushed = 0
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// Whether `entries` are in plan order (results finish out of order when jobs > 1).
    @exclusivity(unchecked) private var inOrder = true
    /// errno of the first write or read that failed.
    private var failure: Int32?
    // Reading back, once the run has ended: the next entry to read, and the window of the file
    // last read (kept between calls: the fragments read next are most likely in it).
    private var cursor = 0
    /// Memory of the spool's own (freed in `deinit`): an array here was retained and released
    /// for every fragment handed out.
    private var window = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var windowOffset = 0
    private var windowCount = 0

    /// A spool file in `target`'s spool folder (beside a file, on the file system the report
    /// will be renamed on; the temporary folder for a stream), unlinked at once: its space comes
    /// back when the spool goes, even if the process dies.
    init(for target: ReportTarget) throws(ReportWriteError) {
        let path = target.path
        let (_, temporary) = AtomicFile.temporaryPath(named: "runner-report", in: target.spoolDirectory)
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AtomicFile.failure(path, errno) }
        unlink(temporary)
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
        window.deallocate()
    }

    /// Keeps `fragment` as the result at `position`.
    func append(_ fragment: [UInt8], at position: ResultPosition) {
        append(at: position) { $0.append(fragment) }
    }

    /// Keeps what `render` appends to the bytes it is given as the result at `position`:
    /// written in place, not copied from a buffer of its own.
    func append(at position: ResultPosition, _ render: (inout ByteBuffer) -> Void) {
        append(at: position, ()) { _, bytes in render(&bytes) }
    }

    /// The same, with `subject` handed to `render` as it is: a closure that captured it (a
    /// result) would copy it, a retain and a release for each of its references.
    func append<Subject>(at position: ResultPosition, _ subject: Subject, _ render: (Subject, inout ByteBuffer) -> Void) {
        if let last = entries.last, position < last.position { inOrder = false }
        let start = pending.count
        render(subject, &pending)
        entries.append(Entry(position: position, offset: flushed + start, length: pending.count - start))
        if pending.count >= Self.flushSize { flush() }
    }

    /// How much of the file one read brings back. Results that finish in plan order, or
    /// nearly (the usual case), sit in the file in the order they are replayed, so one read
    /// serves hundreds of them instead of a read per result.
    private static let readSize = 1 << 20
    /// How far before the result it is read for a read starts: results that finished a little
    /// out of order (parallel transfers) are then still in the bytes read.
    private static let readBehind = 64 * 1024

    /// Copies the fragments of plan `suite` into `output` in plan order, `separator` between
    /// two of them; returns how many there were. Suites are replayed in ascending order.
    func replay(suite: Int, separator: [UInt8], into output: inout FileOutput) throws(ReportWriteError) -> Int {
        seek(toSuite: suite)
        var count = 0
        return try read(while: { $0.suite == suite }) { _, fragment in
            if count > 0, !separator.isEmpty { output.write(separator) }
            output.write(fragment)
            count += 1
        }
    }

    /// Moves the reading cursor to the first fragment of plan `suite` (or of the first plan
    /// after it that has any), everything written so far in the file and in plan order.
    func seek(toSuite suite: Int) {
        flush()
        if !inOrder {
            entries.sort { $0.position < $1.position }
            inOrder = true
        }
        cursor = firstEntry(ofSuiteAtLeast: suite)
    }

    /// Hands `body` each fragment from the cursor on, in plan order, for as long as `belongs`
    /// takes its position, and leaves the cursor at the first it did not take; returns how
    /// many it handed over. The bytes are only valid during the call. A report that lays out
    /// its results in groups (the HTML report, a scenario at a time) reads on where it stopped.
    func read(
        while belongs: (ResultPosition) -> Bool,
        _ body: (ResultPosition, UnsafeRawBufferPointer) throws(ReportWriteError) -> Void
    ) throws(ReportWriteError) -> Int {
        var count = 0
        while cursor < entries.count, belongs(entries[cursor].position), failure == nil {
            let entry = entries[cursor]
            let inWindow = entry.offset >= windowOffset && entry.offset + entry.length <= windowOffset + windowCount
            if !inWindow {
                windowOffset = max(0, entry.offset - Self.readBehind)
                windowCount = min(max(Self.readSize, entry.offset + entry.length - windowOffset), flushed - windowOffset)
                if window.count < windowCount {
                    window.deallocate()
                    window = .allocate(byteCount: max(windowCount, Self.readSize), alignment: 16)
                }
                read(into: window, count: windowCount, at: windowOffset)
                if failure != nil { break }
            }
            let from = entry.offset - windowOffset
            try body(entry.position, UnsafeRawBufferPointer(rebasing: window[from..<(from + entry.length)]))
            count += 1
            cursor += 1
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
        if failure == nil { failure = pending.withUnsafeBytes { AtomicFile.writeAll(UnsafeRawBufferPointer($0), to: fd) } }
        flushed += pending.count
        pending.removeAll()
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
