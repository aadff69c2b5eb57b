import NIOConcurrencyHelpers
import NIOCore

/// Hands out connection ids and counts accepted connections per lab address and requests per
/// path, from any event loop: tests wait on these counts instead of guessing with sleeps. It
/// also keeps the latest `arrivalsKept` requests whole (`LabArrival`).
final class ConnectionLedger: Sendable {
    /// Enough for any one test's requests, bounded for a lab that serves a bench's 40,000.
    static let arrivalsKept = 4096

    private struct State {
        var lastConnectionID = 0
        var acceptedByAddress: [String: Int] = [:]
        var requestsByPath: [String: Int] = [:]
        /// The latest arrivals, oldest first once full: `arrivals[nextArrival]` is the oldest.
        var arrivals: [LabArrival] = []
        var nextArrival = 0
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
    func requestArrived(path: Substring, _ arrival: LabArrival) {
        state.withLockedValue { state in
            state.requestsByPath[String(path), default: 0] += 1
            if state.arrivals.count < Self.arrivalsKept {
                state.arrivals.append(arrival)
            } else {
                state.arrivals[state.nextArrival] = arrival
                state.nextArrival = (state.nextArrival + 1) % Self.arrivalsKept
            }
        }
    }

    /// The kept requests for `target` (path and query, exactly), in the order they arrived.
    func arrivals(target: String) -> [LabArrival] {
        state.withLockedValue { state in
            let ordered = state.arrivals[state.nextArrival...] + state.arrivals[..<state.nextArrival]
            return ordered.filter { $0.target == target }
        }
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
