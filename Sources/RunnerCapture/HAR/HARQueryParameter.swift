/// One `name=value` pair of a request's query string, as the capture decoded it.
public struct HARQueryParameter: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
