import RunnerPlan
import RunnerTransport
import RunnerVocabulary

/// What one hop puts on the wire under a strategy: decided here, carried out by Transport.
///
/// A pure value so every strategy's rewrite is unit-tested without sockets.
struct WirePlan: Equatable, Sendable {
    /// The URL with the original host, as the plan (or a `Location`) wrote it.
    var originalURL: PlanURL
    /// How the hop reaches the server: the URL sent, Host, connect-to, SNI, pin and TLS (the
    /// strategy already concrete, `auto` decided).
    var connection: HopConnection
    /// The IP the strategy pinned, as an address (`connection.pinnedIP` is its text); nil
    /// under `system` unless the runner asked the resolver itself.
    var pinnedIP: IPAddress?
    /// Connection identity: scheme, original host, port, pinned IP, strategy and TLS settings.
    var poolKey: PoolKey

    /// The concrete strategy.
    var strategy: StrategyKind { connection.strategy }
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
        url: PlanURL, strategy requested: StrategyKind, ip: IPAddress?, tls: ConnectionTLS, http: HTTPVersion
    ) -> WirePlan {
        let strategy = requested.concrete(for: url.scheme)
        let hostIsLiteral = StrategyRules.mayBeIPLiteral(url.host) && IPAddress(url.host) != nil
        let authority = url.authority
        // The port's text, made once for the connect-to line and the pool key.
        let port = String(url.port)
        let portSuffix = url.explicitPort.map { ":" + String($0) } ?? ""
        var connection = HopConnection(
            strategy: strategy, urlSent: url.description, hostHeader: authority,
            sni: url.scheme == .https && !hostIsLiteral ? url.host : nil, pinnedIP: nil, tls: tls)
        connection.tls.verifyName = nil
        var pinned: IPAddress?
        switch strategy {
        case .headerOnly, .trustOverride:
            guard let ip else { break }
            pinned = ip
            connection.urlSent = String(concatenating: url.scheme.rawValue, "://", ip.urlHost, portSuffix, url.pathAndQuery)
            connection.setsHostHeader = true
            connection.sni = nil
            if strategy == .trustOverride { connection.tls.verifyName = url.host }
        case .sniResolve, .system:
            // `system` pins only when the runner asked the resolver itself (`resolver:`): the
            // name still goes in the URL, SNI and certificate check, as libcurl would send it.
            guard let ip else { break }
            pinned = ip
            connection.connectTo = url.host.utf8.contains(UInt8(ascii: ":"))
                ? String(concatenating: "[", url.host, "]:", port, ":", ip.urlHost, ":", port)
                : String(concatenating: url.host, ":", port, ":", ip.urlHost, ":", port)
        case .auto:
            break
        }
        connection.pinnedIP = pinned?.text
        let poolKey = PoolKey([
            url.scheme.rawValue, url.host, port, pinned?.text ?? "-", strategy.rawValue,
            tls.caFile ?? "system", tls.insecure ? "insecure" : "verify", http.rawValue,
        ], client: tls.client)
        return WirePlan(originalURL: url, connection: connection, pinnedIP: pinned, poolKey: poolKey)
    }

    /// A cheap first look before parsing: an IP literal has a ':' (IPv6) or only digits and
    /// dots (IPv4); a host name almost always has a letter.
    static func mayBeIPLiteral(_ host: String) -> Bool {
        host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[")
            || $0 == UInt8(ascii: "]") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) }
    }
}
