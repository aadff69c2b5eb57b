/// Bytes on their way into a file descriptor, in large writes; the first error is kept and
/// everything after it dropped, for the owner to report once (see `AtomicFile`).
struct FileOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private static let capacity = 256 * 1024
    /// errno of the first write that failed.
    private(set) var failure: Int32?

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(Self.capacity)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        if buffer.count + bytes.count > Self.capacity { flush() }
        if bytes.count >= Self.capacity {
            if failure == nil { failure = AtomicFile.writeAll(bytes, to: fd) }
            return
        }
        buffer.append(contentsOf: bytes)
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
        if failure == nil { failure = buffer.withUnsafeBytes { AtomicFile.writeAll($0, to: fd) } }
        buffer.removeAll(keepingCapacity: true)
    }
}
