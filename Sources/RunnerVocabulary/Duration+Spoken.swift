extension Duration {
    /// `800 ms`, `1234 ms`, `3.4 ms`: whole milliseconds from 10 ms up, one decimal below, as
    /// problems and evidence say a time. `fractionDigits` overrides that (trailing zeros are
    /// trimmed either way).
    public func spokenMilliseconds(fractionDigits: Int? = nil) -> String {
        let ms = inMilliseconds
        let digits = fractionDigits ?? (abs(ms) < 10 ? 1 : 0)
        return "\(Self.fixed(ms, fractionDigits: digits)) ms"
    }

    /// `value` rounded to `fractionDigits` decimals, trailing zeros trimmed, never in exponent form.
    public static func fixed(_ value: Double, fractionDigits: Int) -> String {
        let digits = max(0, min(fractionDigits, 6))
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        // Beyond this Int64 arithmetic could overflow; such values are nonsense anyway.
        guard value.isFinite, scaled < 1e15 else { return "\(value)" }
        let units = Int64(scaled)
        var text = String(units / scale)
        var fraction = String(units % scale)
        if digits > 0 {
            fraction = String(repeating: "0", count: digits - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return value < 0 && units != 0 ? "-" + text : text
    }
}
