import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for engine tests that must run without the lab: a
/// thread per connection, keep-alive, Content-Length bodies, canned responses. It records what
/// arrived so tests can compare bytes exactly.
final class LoopbackServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// 1 for the first accepted connection, 2 for the next, …
        var connection: Int

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// What to send back: raw bytes (whole response, interim ones included), or nothing ever.
    enum Reply: Sendable {
        case raw([UInt8])
        case silent

        static func ok(_ body: [UInt8], headers: [String] = [], status: String = "200 OK") -> Reply {
            var head = "HTTP/1.1 \(status)\r\nContent-Length: \(body.count)\r\n"
            for line in headers { head += line + "\r\n" }
            return .raw(Array((head + "\r\n").utf8) + body)
        }
    }

    let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var received: [Request] = []
    private var accepted = 0
    /// Connections still open (each is removed as it is closed).
    private var clients: [Int32] = []
    private var stopped = false

    init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ServerError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw ServerError("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Requests received so far, in arrival order.
    var requests: [Request] { lock.withLock { received } }
    var connectionsAccepted: Int { lock.withLock { accepted } }

    /// Ends the server. Only descriptors this server still holds are touched: a number it has
    /// closed may already belong to another socket of the test process (the lab's, libcurl's),
    /// and shutting that one down is what used to drop other tests' fresh connections in a
    /// parallel run. The listener is closed by the accept loop, once it no longer uses it.
    func stop() {
        lock.withLock {
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let number: Int? = lock.withLock {
                guard !stopped else { return nil }
                accepted += 1
                clients.append(client)
                return accepted
            }
            guard let number else {
                close(client)
                return
            }
            Thread.detachNewThread { [self] in serve(client, connection: number) }
        }
    }

    private func serve(_ client: Int32, connection: Int) {
        // Forgotten and closed under the lock, so `stop` never sees a number that was closed.
        defer {
            lock.withLock {
                clients.removeAll { $0 == client }
                close(client)
            }
        }
        var buffer: [UInt8] = []
        while true {
            guard let request = readRequest(client, &buffer, connection: connection) else { return }
            lock.withLock { received.append(request) }
            switch handler(request) {
            case .silent:
                // Never answer; wait for the client to give up.
                var sink = [UInt8](repeating: 0, count: 1024)
                while recv(client, &sink, sink.count, 0) > 0 {}
                return
            case .raw(let bytes):
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent <= 0 { return }
                    offset += sent
                }
            }
        }
    }

    private func readRequest(_ client: Int32, _ buffer: inout [UInt8], connection: Int) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let range = buffer.firstRange(of: separator) { headEnd = range.lowerBound; break }
            guard receive(client, &buffer) else { return nil }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length {
            guard receive(client, &buffer) else { return nil }
        }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return Request(
            method: requestLine.first.map(String.init) ?? "", path: requestLine.dropFirst().first.map(String.init) ?? "",
            headers: headers, body: body, connection: connection)
    }

    private func receive(_ client: Int32, _ buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(client, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ call: String) { description = "\(call) failed: \(String(cString: strerror(errno)))" }
    }
}

/// A socket that listens but never accepts: the kernel completes TCP handshakes into the
/// backlog, and nothing is ever answered (for timeout tests).
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 128) == 0 else { throw LoopbackServer.ServerError("silent listener") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
