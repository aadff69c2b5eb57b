import RunnerVocabulary

/// One rule of `expect.edges` (scheduling): the clients it is for, and where their answers may
/// send them. Every address a selected client was given must lie within one of the bounds.
public struct EdgeRule: Sendable, Equatable {
    /// Which of the plan's clients the rule is for.
    public enum Selector: Sendable, Equatable {
        /// These clients, by name.
        case names([String])
        /// Every client with all of these labels.
        case labels([ClientPopulation.Label])
    }

    /// Where an address may lie.
    public enum Bound: Sendable, Equatable {
        case subnet(IPSubnet)
        case address(IPAddress)
        /// The addresses a static map lists for the same host.
        case map(String)
    }

    public var clients: Selector
    public var within: [Bound]
    /// Where the rule is written, for the message of a miss.
    public var location: SourceLocation

    public init(clients: Selector, within: [Bound], location: SourceLocation) {
        self.clients = clients
        self.within = within
        self.location = location
    }

    /// Whether the rule is for `client`.
    public func selects(_ client: ClientIdentity) -> Bool {
        switch clients {
        case .names(let names): names.contains(client.name)
        case .labels(let labels): labels.allSatisfy(client.labels.contains)
        }
    }
}
