/// One header line, the name as written (compare names with `HeaderName.equal`).
public struct Header: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
