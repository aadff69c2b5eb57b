import NIOConcurrencyHelpers
import NIOCore

/// What the lab knows about one accepted TCP connection; `/echo` reports it.
struct ConnectionInfo: Sendable {
    /// Unique per TCP connection within one lab, starting at 1.
    let id: Int
    let tls: Bool
    /// The SNI the client sent, `nil` when it sent none (always `nil` on plain HTTP).
    var serverName: String?
    let localAddress: String?
    let localPort: Int?
    let remoteAddress: String?
    let remotePort: Int?
    /// Numbers the requests of this connection, shared by all its HTTP/2 streams.
    let requests = RequestCounter()

    init(id: Int, tls: Bool, channel: any Channel) {
        self.id = id
        self.tls = tls
        self.serverName = nil
        self.localAddress = channel.localAddress?.ipAddress
        self.localPort = channel.localAddress?.port
        self.remoteAddress = channel.remoteAddress?.ipAddress
        self.remotePort = channel.remoteAddress?.port
    }
}

/// Counts the requests of one TCP connection, 1, 2, 3…, whether they come one after another
/// (HTTP/1.1 keep-alive) or as streams of one HTTP/2 connection, in the order their heads arrive.
final class RequestCounter: Sendable {
    private let count = NIOLockedValueBox(0)

    /// The 1-based index of the request whose head just arrived.
    func next() -> Int {
        count.withLockedValue { count in
            count += 1
            return count
        }
    }
}
