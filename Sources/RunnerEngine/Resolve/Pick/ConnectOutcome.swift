/// What one ranking connect to an (address, port) gave: how long the TCP handshake took, or why
/// it failed. The SDKs rank by exactly this, nothing sent over the connection.
public enum ConnectOutcome: Sendable, Equatable {
    case connected(Duration)
    case failed(ConnectFailure)
}
