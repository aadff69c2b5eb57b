import RunnerPlan

/// An (address, port) a ranking connects to: the key that makes one connect per cycle enough for
/// every population and map that ranks the same address on the same port.
public struct ConnectTarget: Sendable, Hashable, CustomStringConvertible {
    public let address: IPAddress
    public let port: Int

    public init(address: IPAddress, port: Int) {
        self.address = address
        self.port = port
    }

    /// `127.0.0.9:443`, `[2001:db8::1]:443`.
    public var description: String { "\(address.urlHost):\(port)" }
}
