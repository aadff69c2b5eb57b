#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import RunnerPlan

/// The ranking's socket calls, the one place in `Pick/` that touches C: a non-blocking TCP
/// connect, a `poll` for the sockets whose handshake ended, `SO_ERROR`, `close`. Every failure
/// comes back as a `ConnectFailure` with the errno's text.
enum NonBlockingConnect {
    enum Start {
        /// The handshake is under way on this socket.
        case inProgress(Int32)
        /// The handshake ended at once (loopback can); the socket is already closed.
        case connected
        case failed(ConnectFailure)
    }

    /// Opens a socket and starts its connect to `target`, and to nothing else.
    static func start(_ target: ConnectTarget) -> Start {
        guard let port = UInt16(exactly: target.port) else {
            return .failed(ConnectFailure(code: EINVAL, reason: "port \(target.port) is outside 0–65535"))
        }
        let domain = target.address.family == .v4 ? AF_INET : AF_INET6
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(domain, socketType, 0)
        guard descriptor >= 0 else { return .failed(failure(errno, "socket")) }
        let result: Int32
        switch target.address.family {
        case .v4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, target.address.text, &address.sin_addr) == 1 else {
                close(descriptor)
                return .failed(ConnectFailure(code: EINVAL, reason: "\(target.address) is not an IPv4 address"))
            }
            result = connectSocket(descriptor, to: address)
        case .v6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, target.address.text, &address.sin6_addr) == 1 else {
                close(descriptor)
                return .failed(ConnectFailure(code: EINVAL, reason: "\(target.address) is not an IPv6 address"))
            }
            result = connectSocket(descriptor, to: address)
        }
        if result == 0 {
            close(descriptor)
            return .connected
        }
        let error = errno
        guard error == EINPROGRESS else {
            close(descriptor)
            return .failed(failure(error, "connect"))
        }
        return .inProgress(descriptor)
    }

    /// The sockets among `descriptors` whose handshake has ended (connected or failed), waiting
    /// at most until `deadline`: empty when none ended by then; a failure when `poll` itself fails.
    static func ended(_ descriptors: [Int32], deadline: ContinuousClock.Instant) -> Result<Set<Int32>, ConnectFailure> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .success([]) }
            // Rounded up, so that a wait does not end just short of the deadline and spin.
            let milliseconds = Int32(min((left / .milliseconds(1)).rounded(.up), 60_000))
            let ready = poll(&entries, nfds_t(entries.count), milliseconds)
            if ready > 0 { return .success(Set(entries.filter { $0.revents != 0 }.map(\.fd))) }
            if ready < 0, errno != EINTR { return .failure(failure(errno, "poll")) }
        }
    }

    /// How the handshake on `descriptor` ended (nil: connected); closes the socket.
    static func finish(_ descriptor: Int32) -> ConnectFailure? {
        defer { close(descriptor) }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            return failure(errno, "getsockopt")
        }
        return error == 0 ? nil : failure(error, "connect")
    }

    /// Abandons a handshake that ran out of time.
    static func abandon(_ descriptor: Int32, after timeout: Duration) -> ConnectFailure {
        close(descriptor)
        return ConnectFailure(code: ETIMEDOUT, reason: "no connect within \(timeout.planNotation)")
    }

    /// `connect(2)` with a `sockaddr_in` or `sockaddr_in6`, passed as the `sockaddr` it begins with.
    private static func connectSocket<SocketAddress>(_ descriptor: Int32, to address: SocketAddress) -> Int32 {
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<SocketAddress>.size))
            }
        }
    }

    private static func failure(_ code: Int32, _ call: String) -> ConnectFailure {
        let text = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        return ConnectFailure(code: code, reason: call == "connect" ? text.lowercasedFirst : "\(call): \(text)")
    }
}

extension String {
    /// `Connection refused` → `connection refused`, as the runner's other messages read.
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
