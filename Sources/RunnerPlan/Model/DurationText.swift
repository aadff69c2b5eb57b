extension Duration {
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
