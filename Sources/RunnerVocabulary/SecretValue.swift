/// A value no output may show, and the name a reproduction refers to it by: the environment
/// variable of a `${secret:NAME}`, or the name of a `secret: true` capture.
public struct SecretValue: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
