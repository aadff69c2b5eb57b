import RunnerPlan
import RunnerTransport
import RunnerVocabulary

/// What one hop puts on the wire under a strategy: decided here, carried out by Transport.
///
/// A pure value so every strategy's rewrite is unit-tested without sockets.
struct WirePlan: Equatable, Sendable {
    /// The concrete strategy (`auto` already decided).
    var strategy: StrategyKind
    /// The URL with the original host, as the plan (or a `Location`) wrote it.
    var originalURL: PlanURL
    /// The URL handed to libcurl.
    var urlSent: String
    /// The `Host:` header the request carries.
    var hostHeader: String
    /// A `Host:` header the runner must set itself (curl derives it from `urlSent` otherwise).
    var explicitHostHeader: String?
    /// `HOST:PORT:IP:PORT` for curl's connect-to, under sni-resolve.
    var connectTo: String?
    /// The SNI name the handshake carries; nil for none (IP URL) or plain HTTP.
    var sni: String?
    /// Trust override: the name OpenSSL checks the certificate against during the handshake.
    var verifyName: String?
    /// The IP the strategy pinned; nil under `system` unless the runner asked the resolver itself.
    var pinnedIP: IPAddress?
    /// Connection identity: scheme, original host, port, pinned IP, strategy and TLS settings.
    var poolKey: PoolKey
}

/// The contract's strategy table, as functions.
enum StrategyRules {
    /// Why `strategy` cannot carry a URL of `scheme` (`StrategyKind.onlyScheme`), or nil when it can.
    static func incompatibility(_ strategy: StrategyKind, with scheme: PlanURL.Scheme) -> String? {
        guard !strategy.canCarry(scheme) else { return nil }
        switch scheme {
        case .https:
            return "strategy '\(strategy.rawValue)' cannot carry an https:// URL (there would be no certificate check by name); use \(StrategyKind.suggestions(for: .https))"
        case .http:
            return "strategy '\(strategy.rawValue)' needs an https:// URL; use \(StrategyKind.suggestions(for: .http)) for http://"
        }
    }

    /// True when the strategy connects to an IP the runner chose (everything but `system`).
    static func pins(_ strategy: StrategyKind) -> Bool { strategy != .system }

    /// The wire plan for one hop. `ip` is required for every strategy that pins; under `system`
    /// it is the address the scenario's resolver gave (nil: libcurl resolves the name).
    static func wirePlan(
        url: PlanURL, strategy requested: StrategyKind, ip: IPAddress?, tls: TLSIdentity
    ) -> WirePlan {
        let strategy = requested.concrete(for: url.scheme)
        let hostIsLiteral = StrategyRules.mayBeIPLiteral(url.host) && IPAddress(url.host) != nil
        let authority = url.authority
        let portSuffix = url.explicitPort.map { ":\($0)" } ?? ""
        var plan = WirePlan(
            strategy: strategy, originalURL: url, urlSent: url.description, hostHeader: authority,
            explicitHostHeader: nil, connectTo: nil,
            sni: url.scheme == .https && !hostIsLiteral ? url.host : nil,
            verifyName: nil, pinnedIP: nil, poolKey: PoolKey([]))
        switch strategy {
        case .headerOnly, .trustOverride:
            guard let ip else { break }
            plan.pinnedIP = ip
            plan.urlSent = "\(url.scheme.rawValue)://\(ip.urlHost)\(portSuffix)\(url.pathAndQuery)"
            plan.explicitHostHeader = authority
            plan.sni = nil
            if strategy == .trustOverride { plan.verifyName = url.host }
        case .sniResolve, .system:
            // `system` pins only when the runner asked the resolver itself (`resolver:`): the
            // name still goes in the URL, SNI and certificate check, as libcurl would send it.
            guard let ip else { break }
            plan.pinnedIP = ip
            let connectHost = url.host.utf8.contains(UInt8(ascii: ":")) ? "[\(url.host)]" : url.host
            plan.connectTo = "\(connectHost):\(url.port):\(ip.urlHost):\(url.port)"
        case .auto:
            break
        }
        plan.poolKey = PoolKey([
            url.scheme.rawValue, url.host, String(url.port), plan.pinnedIP?.text ?? "-", strategy.rawValue,
            tls.caFile ?? "system", tls.insecure ? "insecure" : "verify", tls.http.rawValue, tls.clientKey,
        ])
        return plan
    }

    /// A cheap first look before parsing: an IP literal has a ':' (IPv6) or only digits and
    /// dots (IPv4); a host name almost always has a letter.
    static func mayBeIPLiteral(_ host: String) -> Bool {
        host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[")
            || $0 == UInt8(ascii: "]") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) }
    }
}

/// The TLS settings that take part in connection identity.
struct TLSIdentity: Equatable, Sendable {
    var caFile: String?
    var insecure: Bool
    var http: HTTPVersion
    /// What the client offers (`tls:`): different settings never share a connection.
    var client = ClientTLS()

    /// The client settings as a pool key component ("-" for the defaults).
    var clientKey: String {
        guard !client.isDefault else { return "-" }
        return client.limitsText + "|" + (client.profile?.rawValue ?? "")
    }

}
