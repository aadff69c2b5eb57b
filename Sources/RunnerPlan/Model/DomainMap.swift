/// A named domain map: where a host's IPs come from.
public struct DomainMapSpec: Sendable, Equatable {
    public var name: String
    public var source: Source
    public var location: SourceLocation

    public init(name: String, source: Source, location: SourceLocation) {
        self.name = name
        self.source = source
        self.location = location
    }

    public enum Source: Sendable, Equatable {
        /// A built-in IP list, host → IPs in the order the plan lists them.
        case staticList([StaticEntry])
        case httpdns(HTTPDNSSpec)
    }

    public struct StaticEntry: Sendable, Equatable {
        public var host: String
        public var addresses: [IPAddress]

        public init(host: String, addresses: [IPAddress]) {
            self.host = host
            self.addresses = addresses
        }
    }
}

/// The name of the implicit map that asks the machine's own resolver.
public let systemDomainMapName = "system"
