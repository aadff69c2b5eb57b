/// A `<certificates>` entry of `<trust-anchors>`.
public struct AndroidTrustAnchor: Sendable, Hashable {
    /// `system`, `user` or `@raw/NAME`.
    public var source: String
    /// Whether a chain this anchor verifies skips the pin check.
    public var overridePins: Bool

    public init(source: String, overridePins: Bool) {
        self.source = source
        self.overridePins = overridePins
    }

    /// Anchors of one config with the same source merged as the platform merges them
    /// (`overridePins` when any of them has it), in first-seen order.
    static func merged(_ anchors: [AndroidTrustAnchor]) -> [AndroidTrustAnchor] {
        var merged: [AndroidTrustAnchor] = []
        for anchor in anchors {
            if let index = merged.firstIndex(where: { $0.source == anchor.source }) {
                merged[index].overridePins = merged[index].overridePins || anchor.overridePins
            } else {
                merged.append(anchor)
            }
        }
        return merged
    }
}
