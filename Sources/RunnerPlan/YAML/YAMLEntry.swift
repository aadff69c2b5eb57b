/// One key and its value in a mapping `YAMLWriter` writes.
public struct YAMLEntry: Sendable, Equatable {
    /// Written as `YAMLValue.string` is: it reads back as exactly this text.
    public var key: String
    public var value: YAMLValue
    /// Whole comment lines above the key, each written `# text` (a line break inside one
    /// becomes a space: a comment cannot end early and start YAML of its own).
    public var comments: [String]

    public init(_ key: String, _ value: YAMLValue, comments: [String] = []) {
        self.key = key
        self.value = value
        self.comments = comments
    }
}
