import RunnerVocabulary

/// A validated plan: everything `runner` needs to run one plan file, with defaults already
/// merged into each scenario and every `${…}` reference substituted.
public struct Plan: Sendable, Equatable {
    /// The path the plan was loaded from, as given on the command line.
    public var path: String
    /// The suite name in reports: `name:` or the file name without its extension.
    public var name: String
    /// Named domain maps, in the order the plan declares them.
    public var domainMaps: [DomainMapSpec]
    public var scenarios: [Scenario]
    /// Values that came from `${secret:…}`, with their variables' names: every report, log and
    /// error masks them as `***`; a reproduction (`--curl`) names them as `"$NAME"`.
    public var secrets: [SecretValue]
    /// The user populations the plan names (`clients:`), in the order written.
    public var clients: [ClientPopulation]
    /// The apps whose trust files the plan reads (`apps:`), in the order written.
    public var apps: [AppDefinition]

    public init(
        path: String, name: String, domainMaps: [DomainMapSpec], scenarios: [Scenario], secrets: [SecretValue],
        clients: [ClientPopulation] = [], apps: [AppDefinition] = []
    ) {
        self.path = path
        self.name = name
        self.domainMaps = domainMaps
        self.scenarios = scenarios
        self.secrets = secrets
        self.clients = clients
        self.apps = apps
    }

    /// The populations map `name` is asked as, in the plan's order; empty for a map that is not
    /// asked as clients (or no such map).
    public func clients(askedBy name: String) -> [ClientPopulation] {
        // Most plans declare no populations: every scenario's lookup asks, so no map is sought.
        guard !clients.isEmpty else { return [] }
        guard case .httpdns(let service)? = domainMap(named: name)?.source, let selection = service.clients else { return [] }
        switch selection {
        case .all: return clients
        case .named(let names): return clients.filter { names.contains($0.name) }
        }
    }

    /// The maps asked as user populations (`clients:` on an httpdns map).
    public var mapsAskingAsClients: [DomainMapSpec] {
        domainMaps.filter { map in
            if case .httpdns(let service) = map.source { return service.clients != nil }
            return false
        }
    }

    /// The domain map called `name`, if the plan declares one.
    public func domainMap(named name: String) -> DomainMapSpec? {
        domainMapIndex(named: name).map { domainMaps[$0] }
    }

    /// Where in `domainMaps` the map called `name` is: for a caller that reads the map in place
    /// (every lookup asks, and a map is a large value to copy out).
    public func domainMapIndex(named name: String) -> Int? {
        domainMaps.indices.first { domainMaps[$0].name == name }
    }
}

/// Where something stands in a plan file (1-based line and column).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
