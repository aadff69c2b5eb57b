/// A `<domain>` of a domain-config: its text trimmed and lower-cased, as the platform keeps it.
public struct AndroidDomain: Sendable, Hashable {
    public var name: String
    public var includeSubdomains: Bool

    public init(name: String, includeSubdomains: Bool) {
        self.name = name
        self.includeSubdomains = includeSubdomains
    }

    /// Whether it covers `host` (lower-case, no trailing dot) by `includeSubdomains`: `host`
    /// ends with `.name` (a suffix on a dot boundary).
    func coversSubdomain(_ host: String) -> Bool {
        includeSubdomains && host.utf8.count > name.utf8.count && host.hasSuffix("." + name)
    }
}
