import Foundation

/// One scenario with the plan's defaults merged in.
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var location: SourceLocation
    public var tags: [String]
    /// The domain map this scenario takes IPs from (`system` is the implicit resolver map).
    public var domainMap: String
    /// One result per strategy (and per IP with `ips: all`).
    public var strategies: [StrategyKind]
    public var ips: IPSelection
    public var ipVersion: IPVersionPreference
    public var settings: TransferSettings
    public var request: RequestSpec
    public var expect: Expectations

    public init(
        name: String, location: SourceLocation, tags: [String], domainMap: String,
        strategies: [StrategyKind], ips: IPSelection, ipVersion: IPVersionPreference,
        settings: TransferSettings, request: RequestSpec, expect: Expectations
    ) {
        self.name = name
        self.location = location
        self.tags = tags
        self.domainMap = domainMap
        self.strategies = strategies
        self.ips = ips
        self.ipVersion = ipVersion
        self.settings = settings
        self.request = request
        self.expect = expect
    }
}

public enum StrategyKind: String, Sendable, Equatable, CaseIterable {
    case headerOnly = "header-only"
    case trustOverride = "trust-override"
    case sniResolve = "sni-resolve"
    case system
    case auto
}

public enum IPSelection: String, Sendable, Equatable {
    case first
    case all
}

public enum IPVersionPreference: String, Sendable, Equatable {
    case v4 = "4"
    case v6 = "6"
    case any
}

public enum HTTPVersionPreference: String, Sendable, Equatable {
    case http1_1 = "1.1"
    case http2 = "2"
    case auto
}

/// Settings from `defaults:` that a scenario (or its request) may override.
public struct TransferSettings: Sendable, Equatable {
    /// Whole transfer, redirects included.
    public var timeout: Duration = .seconds(10)
    public var connectTimeout: Duration = .seconds(3)
    public var http: HTTPVersionPreference = .auto
    public var followRedirects: Bool = true
    public var maxRedirects: Int = 10
    /// Extra trust anchors (PEM), resolved against the plan's directory; nil = system store.
    public var caFile: String? = nil
    /// The only way to skip certificate verification; every report flags such a result.
    public var insecure: Bool = false
    /// Bytes of the response body kept for `contains`/`matches`/`json`.
    public var maxBody: Int = 1 << 20
    /// Extra runs of a result that failed or errored; one that then passes is flaky.
    public var retries: Int = 0
    /// A bound that catches a typo (`retries: 1000`) before it turns one outage into hours.
    public static let maxRetries = 10

    public init() {}
}

/// The request as the plan writes it: the URL keeps the original host.
public struct RequestSpec: Sendable, Equatable {
    public var method: String
    public var url: PlanURL
    /// Default headers first, then the request's own (a later name replaces an earlier one).
    public var headers: [Header]
    public var body: BodySpec?

    public init(method: String, url: PlanURL, headers: [Header], body: BodySpec?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct Header: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

public enum BodySpec: Sendable, Equatable {
    case bytes(Data)
    /// A path resolved against the plan's directory; streamed from disk.
    case file(String)
}

/// An absolute http(s) URL split into the parts the strategies rewrite.
public struct PlanURL: Sendable, Equatable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Equatable {
        case http
        case https

        public var defaultPort: Int { self == .http ? 80 : 443 }
    }

    public let scheme: Scheme
    /// The host without brackets (an IPv6 literal is stored bare).
    public let host: String
    /// The port written in the URL, if any.
    public let explicitPort: Int?
    /// Path, query and nothing else; always starts with `/`.
    public let pathAndQuery: String
    /// `host` or `host:port` when the port is not the scheme's default (the `Host:` header value).
    public let authority: String
    /// The whole URL as text.
    public let description: String

    public init(scheme: Scheme, host: String, explicitPort: Int?, pathAndQuery: String) {
        self.scheme = scheme
        self.host = host
        self.explicitPort = explicitPort
        self.pathAndQuery = pathAndQuery
        // Made once: every request reads them several times (URL sent, Host, evidence).
        let port = explicitPort ?? scheme.defaultPort
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[" + host + "]" : host
        authority = port == scheme.defaultPort ? bracketed : bracketed + ":" + String(port)
        description = scheme.rawValue + "://" + authority + pathAndQuery
    }

    public var port: Int { explicitPort ?? scheme.defaultPort }

    /// Parses an absolute http or https URL; nil when it is not one.
    public static func parse(_ text: String) -> PlanURL? {
        guard let components = URLComponents(string: text),
              let schemeText = components.scheme?.lowercased(),
              let scheme = Scheme(rawValue: schemeText),
              var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let port = components.port, !(1...65535).contains(port) { return nil }
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }
        return PlanURL(scheme: scheme, host: host.lowercased(), explicitPort: components.port, pathAndQuery: path)
    }
}
