import RunnerPlan

/// One address the SDK hands the app, and why that one.
public struct PickedAddress: Sendable, Equatable, CustomStringConvertible {
    public let address: IPAddress
    public let reason: PickReason

    public init(address: IPAddress, reason: PickReason) {
        self.address = address
        self.reason = reason
    }

    /// `127.0.0.9 (first in the answer; ranking off)`.
    public var description: String { "\(address) (\(reason))" }
}
