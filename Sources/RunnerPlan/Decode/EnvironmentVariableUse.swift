/// An environment variable a plan reads: `${env:NAME}`, or `${secret:NAME}` (masked everywhere).
public struct EnvironmentVariableUse: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var isSecret: Bool

    public init(name: String, isSecret: Bool) {
        self.name = name
        self.isSecret = isSecret
    }

    /// The reference as a plan writes it: `${secret:NAME}`.
    public var description: String { "${\(isSecret ? "secret" : "env"):\(name)}" }
}
