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
