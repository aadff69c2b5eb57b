/// Where `serve` listens: `HOST:PORT`, `[IPv6]:PORT` for an IPv6 address (port 0: any free port).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A name or address; an IPv6 one without brackets.
    public let host: String
    /// 0 to 65535; 0 lets the system choose.
    public let port: Int

    /// The address `host`, port `port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT` or `[IPv6]:PORT`; nil when it is neither, or the port is not 0 to 65535.
    public init?(notation: String) {
        guard let colon = notation.lastIndex(of: ":"), let port = Int(notation[notation.index(after: colon)...]),
              (0...65535).contains(port)
        else { return nil }
        var host = String(notation[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("[") && !host.contains("]") else { return nil }
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, or `[IPv6]:PORT`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
