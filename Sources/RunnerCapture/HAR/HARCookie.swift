/// One cookie the capture lists for a request or response (its other fields are not kept).
public struct HARCookie: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
