import RunnerVocabulary

/// A named group of users (the top-level `clients:`): what an HTTPDNS service is asked to
/// answer for when a map asks as its users, and the labels that reports and rules select it by.
public struct ClientPopulation: Sendable, Equatable {
    /// One label: `isp: china-mobile`.
    public typealias Label = ClientIdentity.Label

    /// Its name and labels, as rules select it and reports name it.
    public var identity: ClientIdentity
    /// The address that stands for the population: its `ip`, or the first address of its `subnet`.
    public var address: IPAddress
    /// The subnet that stands for it: its `subnet`, or the /24 (IPv4) or /56 (IPv6) of its `ip`.
    public var subnet: IPSubnet

    public var name: String { identity.name }
    /// Sorted by name; every client of a plan has the same label names.
    public var labels: [Label] { identity.labels }

    public init(name: String, address: IPAddress, subnet: IPSubnet, labels: [Label]) {
        self.identity = ClientIdentity(name: name, labels: labels)
        self.address = address
        self.subnet = subnet
    }

    /// The prefix an `ip` stands for where a subnet is needed (EDNS Client Subnet, `{client_subnet}`).
    public static func defaultPrefixLength(of family: IPAddress.Family) -> Int {
        family == .v4 ? 24 : 56
    }

    /// Names a label may not take: the metrics' own label names, and `client`.
    public static let reservedLabelNames: Set<String> = ["plan", "scenario", "strategy", "ip", "status", "client"]
}

/// A map's `clients:`: the populations it is asked as.
public enum ClientSelection: Sendable, Equatable {
    /// Every client the plan names.
    case all
    /// These, by name, in the order written.
    case named([String])
}
