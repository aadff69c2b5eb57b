/// How a request reaches an IP: the plan names it, the engine carries it out, reports print it.
public enum StrategyKind: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case headerOnly = "header-only"
    case trustOverride = "trust-override"
    case sniResolve = "sni-resolve"
    case system
    case auto

    /// The plan's spelling (`header-only`), also where a strategy is interpolated into text.
    public var description: String { rawValue }

    /// The scheme a strategy is for, when it is for one only: header-only sends the IP in plain
    /// HTTP (no certificate could be checked by name), trust override needs TLS. The one place
    /// the rule lives; the plan check and the engine both ask it.
    public var onlyScheme: URLScheme? {
        switch self {
        case .headerOnly: .http
        case .trustOverride: .https
        case .sniResolve, .system, .auto: nil
        }
    }

    /// Whether this strategy can carry a URL of `scheme`.
    public func canCarry(_ scheme: URLScheme) -> Bool {
        onlyScheme.map { $0 == scheme } ?? true
    }

    /// The named IP-pinning strategies that can carry `scheme`, as a plan would suggest them
    /// (`'trust-override' or 'sni-resolve'`).
    public static func suggestions(for scheme: URLScheme) -> String {
        allCases.filter { $0 != .system && $0 != .auto && $0.canCarry(scheme) }
            .map { "'\($0.rawValue)'" }.joined(separator: " or ")
    }

    /// What `auto` means for a scheme (header-only for http, sni-resolve for https); every
    /// other strategy is itself.
    public func concrete(for scheme: URLScheme) -> StrategyKind {
        guard self == .auto else { return self }
        switch scheme {
        case .http: return .headerOnly
        case .https: return .sniResolve
        }
    }
}
