/// One cycle's ranking connects, by (address, port): every population and map that ranks the
/// same address on the same port reads the one connect made for it. A new cycle starts a new
/// cache. The first connect's timeout is the one that counts for its (address, port).
public struct ConnectProbeCache: Sendable {
    public private(set) var outcomes: [ConnectTarget: ConnectOutcome] = [:]
    /// Sockets this cycle opened for ranking: at most one per distinct (address, port).
    public private(set) var connectsMade = 0

    public init() {}

    public func outcome(for target: ConnectTarget) -> ConnectOutcome? { outcomes[target] }

    mutating func record(_ outcome: ConnectOutcome, for target: ConnectTarget) {
        outcomes[target] = outcome
    }

    mutating func countConnect() { connectsMade += 1 }

    /// Takes `other`'s outcomes and connect count (a `ConnectProbeCycle` lookup's own measure).
    mutating func merge(_ other: ConnectProbeCache) {
        outcomes.merge(other.outcomes) { kept, _ in kept }
        connectsMade += other.connectsMade
    }
}
