/// One item of a sequence `YAMLWriter` writes.
public struct YAMLItem: Sendable, Equatable {
    public var value: YAMLValue
    /// Whole comment lines above the item's `-`, each written `# text` (see `YAMLEntry.comments`).
    public var comments: [String]

    public init(_ value: YAMLValue, comments: [String] = []) {
        self.value = value
        self.comments = comments
    }
}
