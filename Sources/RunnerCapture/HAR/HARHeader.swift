/// One header as the capture lists it, in its order and spelling.
public struct HARHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// An HTTP/2 or 3 pseudo-header (`:authority`, `:method`, `:path`, `:scheme`, `:status`),
    /// which Chrome and Charles list among the headers but which no request sends as one.
    public var isPseudo: Bool { name.hasPrefix(":") }
}
