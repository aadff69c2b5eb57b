import RunnerVocabulary

/// Which transfers may share connections: equal keys share one connection cache, different
/// keys never do. Kept as parts, not one joined string: a key is made for every request, and
/// hashing a few strings costs far less than concatenating them.
public struct PoolKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var parts: [String]
    /// What the client offers in the handshake, nil for the defaults (most keys: one hash of
    /// nothing): different settings never share a connection. Kept as the value, not written
    /// out as text for each hop.
    public var client: ClientTLS?

    public init(_ parts: [String], client: ClientTLS = ClientTLS()) {
        self.parts = parts
        self.client = client.isDefault ? nil : client
    }

    public init(stringLiteral value: String) { self.init([value]) }

    /// The same identity under a tag of its own (e.g. the diagnosis probe's separate pool).
    public func tagged(_ tag: String) -> PoolKey { PoolKey([tag] + parts, client: client ?? ClientTLS()) }

    public var description: String {
        let settings = client.map { $0.limitsText + "|" + ($0.profile?.rawValue ?? "") } ?? "-"
        return (parts + [settings]).joined(separator: "|")
    }
}
