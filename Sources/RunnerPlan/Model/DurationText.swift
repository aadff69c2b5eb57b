extension Duration {
    /// A duration written as a plan writes it (`250ms`, `5s`, `1.5m`), nil when it is not one or
    /// not more than zero: for command-line options that take the plan's notation.
    public init?(planNotation text: String) {
        guard case .valid(let duration) = PlanDecoder.parseDuration(text) else { return nil }
        self = duration
    }

    /// The duration as a plan writes it: `250ms`, `1s`, `1.5s`, `2m`.
    public var planNotation: String {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        if milliseconds < 1000 { return Self.trimmed(milliseconds) + "ms" }
        if milliseconds.truncatingRemainder(dividingBy: 60_000) == 0 { return "\(Int(milliseconds / 60_000))m" }
        return Self.trimmed(milliseconds / 1000) + "s"
    }

    private static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
