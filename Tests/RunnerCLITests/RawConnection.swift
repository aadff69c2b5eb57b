import Foundation
import PlanFixtures

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a port on 127.0.0.1 that sends exactly the bytes a test gives (half a
/// request, HTTP/0.9, a body that never comes) and reads what comes back, every read bounded
/// (`SO_RCVTIMEO`), so that no test can hang on a server that holds the connection. Reads wait
/// on a thread of their own, not on the test pool's few threads (whose other tests' timers they
/// would hold up). Used by one task at a time.
final class RawConnection: @unchecked Sendable {
    /// How a connection was when a read stopped.
    enum State: Equatable {
        /// The server closed it (end of stream).
        case closed
        /// The server reset it (`ECONNRESET`): closed with bytes unread on its side.
        case reset
        /// Still open when the time given was up.
        case open
        /// Another error (its `errno`).
        case failed(Int32)

        /// Closed by the server, either way.
        var isClosed: Bool { self == .closed || self == .reset }
    }

    /// Why a connection could not be made.
    struct ConnectFailed: Error, CustomStringConvertible {
        var port: Int
        var errorNumber: Int32

        var description: String { "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errorNumber)))" }
    }

    /// Why bytes could not be sent.
    struct SendFailed: Error, CustomStringConvertible {
        var errorNumber: Int32

        var description: String { "send failed: \(String(cString: strerror(errorNumber)))" }
    }

    private let descriptor: Int32
    /// What the server has sent so far.
    private(set) var received = Data()
    /// The state the last read found.
    private(set) var state = State.open

    init(port: Int) throws(ConnectFailed) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectFailed(port: port, errorNumber: errno) }
        // Short reads: each `recv` waits 100 ms at most; the callers' deadlines bound the rest.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let number = errno
            close(descriptor)
            throw ConnectFailed(port: port, errorNumber: number)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` whole.
    func send(_ text: String) throws(SendFailed) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw SendFailed(errorNumber: errno) }
            sent += count
        }
    }

    /// Reads until the server closes the connection or `seconds` have passed; returns the state.
    @discardableResult
    func readUntilClosed(within seconds: Double) async throws -> State {
        try await offPool { self.read(within: seconds) { _ in false } }
    }

    /// Reads until what came holds `text` `count` times, the server closes, or `seconds` have passed.
    @discardableResult
    func read(until text: String, count: Int = 1, within seconds: Double) async throws -> State {
        try await offPool {
            self.read(within: seconds) { String(decoding: $0, as: UTF8.self).components(separatedBy: text).count > count }
        }
    }

    /// What came, as text.
    var text: String { String(decoding: received, as: UTF8.self) }

    private func read(within seconds: Double, done: (Data) -> Bool) -> State {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !done(received) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
                continue
            }
            if count == 0 {
                state = .closed
                return state
            }
            let number = errno
            switch number {
            case EAGAIN, EWOULDBLOCK, EINTR:
                guard Date() < deadline else {
                    state = .open
                    return state
                }
            case ECONNRESET:
                state = .reset
                return state
            default:
                state = .failed(number)
                return state
            }
        }
        state = .open
        return state
    }
}
