/// Why a ranking connect did not connect: the socket error's number and its text (`strerror`),
/// or the timeout the SDK gives one connect.
public struct ConnectFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` (`ECONNREFUSED`, `ENETUNREACH`, `ETIMEDOUT` when the timeout passed).
    public let code: Int32
    public let reason: String

    public init(code: Int32, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
