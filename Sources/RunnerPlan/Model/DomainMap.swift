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

/// An HTTPDNS service a map asks (issue: HTTPDNS maps; parsed and validated here already).
public struct HTTPDNSSpec: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case dnspod
        case alibaba
        case dohJSON = "doh-json"
    }

    public enum Fallback: Sendable, Equatable {
        case none
        case system
        case map(String)
    }

    public var format: Format
    /// URL template; `{host}` is replaced by the URL-encoded host.
    public var urlTemplate: String
    public var timeout: Duration
    public var fallback: Fallback
    /// How queries are signed or encrypted; nil for a service that asks for neither.
    public var auth: HTTPDNSAuth?

    public init(format: Format, urlTemplate: String, timeout: Duration, fallback: Fallback, auth: HTTPDNSAuth? = nil) {
        self.format = format
        self.urlTemplate = urlTemplate
        self.timeout = timeout
        self.fallback = fallback
        self.auth = auth
    }
}

/// The name of the implicit map that asks the machine's own resolver.
public let systemDomainMapName = "system"
