/// The two schemes the runner speaks.
public enum URLScheme: String, Sendable, Equatable {
    case http
    case https

    public var defaultPort: Int { self == .http ? 80 : 443 }
}
