/// Which transfers may share connections: equal keys share one connection cache, different
/// keys never do. Kept as parts, not one joined string: a key is made for every request, and
/// hashing a few strings costs far less than concatenating them.
public struct PoolKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var parts: [String]

    public init(_ parts: [String]) { self.parts = parts }

    public init(stringLiteral value: String) { self.parts = [value] }

    /// The same identity under a tag of its own (e.g. the diagnosis probe's separate pool).
    public func tagged(_ tag: String) -> PoolKey { PoolKey([tag] + parts) }

    public var description: String { parts.joined(separator: "|") }
}
