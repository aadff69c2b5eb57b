#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes on their way into a file descriptor, in large writes; the first error is kept and
/// everything after it dropped, for the owner to report once (see `AtomicFile`). Its buffer is
/// a `ByteBuffer`: a report's spool hands it a fragment per result, and an array's
/// `append(contentsOf:)` cost ~115 instructions a call around the copy.
struct FileOutput: ~Copyable {
    private let fd: Int32
    private var buffer: ByteBuffer
    private static let capacity = 256 * 1024
    /// errno of the first write that failed.
    private(set) var failure: Int32?
    /// Bytes written to the file so far, and how many of them have been handed to writeback.
    private var written = 0
    private var handedToWriteback = 0
    /// How much is written before it is handed to writeback (see `startWriteback`).
    private static let writebackStep = 8 * 1024 * 1024

    init(fd: Int32) {
        self.fd = fd
        buffer = ByteBuffer(capacity: Self.capacity)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        if buffer.count + bytes.count > Self.capacity { flush() }
        if bytes.count >= Self.capacity {
            writeToFile(bytes)
            return
        }
        buffer.append(bytes)
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil { failure = buffer.withUnsafeBytes { [fd] in AtomicFile.writeAll(UnsafeRawBufferPointer($0), to: fd) } }
        wrote(buffer.count)
        buffer.removeAll()
    }

    private mutating func writeToFile(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        failure = AtomicFile.writeAll(bytes, to: fd)
        wrote(bytes.count)
    }

    private mutating func wrote(_ count: Int) {
        guard failure == nil else { return }
        written += count
        if written - handedToWriteback >= Self.writebackStep { startWriteback() }
    }

    /// Asks the kernel to start writing what has been written so far to disk, so that the
    /// `fsync` that ends `AtomicFile.write` waits for the last few megabytes rather than all of
    /// them: a 65 MB report's fsync took 17 ms, 5 ms after this (2-core VM, ext4). A hint only:
    /// on Linux `POSIX_FADV_DONTNEED` starts writeback of dirty pages without waiting for it;
    /// its result does not matter, as the fsync still makes the file durable.
    private mutating func startWriteback() {
        #if os(Linux)
        _ = posix_fadvise(fd, off_t(handedToWriteback), off_t(written - handedToWriteback), POSIX_FADV_DONTNEED)
        #endif
        handedToWriteback = written
    }
}
