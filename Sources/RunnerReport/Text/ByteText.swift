/// Text appended to a byte buffer without going through `String`: the reports write tens of
/// thousands of numbers and indents, and a temporary `String` for each shows up in profiles.
enum ByteText {
    /// `count` spaces.
    static func spaces(_ count: Int, to bytes: inout [UInt8]) {
        var left = count
        while left > 0 {
            let chunk = min(left, 64)
            lineBreaks.withUTF8Buffer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[2..<(2 + chunk)])) }
            left -= chunk
        }
    }

    /// A comma, a newline and 64 spaces: member separators and indents are slices of it,
    /// copied in one piece (a literal, so no array is made for it).
    static let lineBreaks: StaticString = ",\n                                                                "

    /// `,` (when `comma`), a newline and `indent` spaces.
    @inline(__always)
    static func lineBreak(comma: Bool, indent: Int, to bytes: inout [UInt8]) {
        guard indent <= 64 else {
            if comma { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\n"))
            return spaces(indent, to: &bytes)
        }
        lineBreaks.withUTF8Buffer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[(comma ? 0 : 1)..<(2 + indent)])) }
    }

    /// The decimal digits of `value`, with a leading `-` when it is negative.
    static func decimal<Value: BinaryInteger>(_ value: Value, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(UInt64(value.magnitude), to: &bytes)
    }

    /// The decimal digits of `value` (at least one).
    static func digits(_ value: UInt64, to bytes: inout [UInt8]) {
        // 20 digits hold UInt64.max; filled from the end, then copied in one piece.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `digits` of `value` with leading zeros up to `width`.
    static func padded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var length = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        for _ in 0..<max(0, width - length) { bytes.append(UInt8(ascii: "0")) }
        digits(UInt64(value.magnitude), to: &bytes)
    }

    /// Calls `body` with the UTF-8 of `text`, without a copy for a native string.
    @inline(__always)
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // `withUTF8` needs a `var`; a native string is not copied by it, a bridged one would be.
        var text = text
        return text.withUTF8(body)
    }
}
