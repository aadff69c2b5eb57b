import Foundation
import RunnerVocabulary

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import RunnerVocabulary
#endif

/// A request body streamed from a file: opened when the transfer starts, read in libcurl's
/// chunks, rewound when libcurl resends; never read whole into memory.
final class FileBody {
    let path: String
    let size: Int64
    private let descriptor: Int32

    init(path: String) throws(TransferError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("cannot open body file '\(path)'", errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            throw Self.failure("cannot stat body file '\(path)'", error)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw TransferError(
                kind: .io, message: "body file '\(path)' is not a regular file", curlCode: CurlCode.readError)
        }
        self.descriptor = descriptor
        self.size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    /// Fills `buffer` from the current position: bytes read (0 at the end), nil on an error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return nil }
        }
    }

    func seek(to offset: Int64) -> Bool {
        lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
    }

    private static func failure(_ what: String, _ error: Int32) -> TransferError {
        TransferError(
            kind: .io, message: "\(what): \(String(cString: strerror(error)))", curlCode: CurlCode.readError)
    }
}

/// POSIX read(2) (the method above shadows the plain name).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
