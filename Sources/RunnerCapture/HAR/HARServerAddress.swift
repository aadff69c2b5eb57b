/// The address a request went to, as every tool's spelling normalizes: no brackets, with the port
/// when the capture kept one (Firefox's `connection`, Safari's `_serverPort`).
public struct HARServerAddress: Sendable, Equatable {
    /// An IPv4 or IPv6 address, bare (Chrome's `[2620:0:860:ed1a::1]` loses its brackets).
    public var address: String
    public var port: Int?

    public init(address: String, port: Int? = nil) {
        self.address = address
        self.port = port
    }
}
