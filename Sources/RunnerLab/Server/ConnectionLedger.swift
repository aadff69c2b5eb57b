import NIOConcurrencyHelpers
import NIOCore

/// Hands out connection ids and counts accepted connections per lab address and requests per
/// path, from any event loop: tests wait on these counts instead of guessing with sleeps.
final class ConnectionLedger: Sendable {
    private struct State {
        var lastConnectionID = 0
        var acceptedByAddress: [String: Int] = [:]
        var requestsByPath: [String: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Records a connection accepted on `address` and returns its new id.
    func accept(on address: String) -> Int {
        state.withLockedValue { state in
            state.lastConnectionID += 1
            state.acceptedByAddress[Self.canonical(address), default: 0] += 1
            return state.lastConnectionID
        }
    }

    /// Connections accepted on `address` so far (HTTP and HTTPS together).
    func accepted(on address: String) -> Int {
        state.withLockedValue { $0.acceptedByAddress[Self.canonical(address)] ?? 0 }
    }

    /// Records a request read whole, before it is answered.
    func requestArrived(path: Substring) {
        state.withLockedValue { $0.requestsByPath[String(path), default: 0] += 1 }
    }

    /// Requests for `path` (without the query) read so far, on every address and transport.
    func requests(path: String) -> Int {
        state.withLockedValue { $0.requestsByPath[path] ?? 0 }
    }

    /// One spelling per address, so "[::1]" or "0:0:0:0:0:0:0:1" count as "::1".
    static func canonical(_ address: String) -> String {
        var text = address
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        return (try? SocketAddress(ipAddress: text, port: 0))?.ipAddress ?? text
    }
}
