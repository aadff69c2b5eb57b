/// Text appended to a byte buffer without going through `String`: the reports write tens of
/// thousands of numbers and indents, and a temporary `String` for each shows up in profiles.
enum ByteText {
    /// `count` spaces.
    static func spaces(_ count: Int, to bytes: inout ByteBuffer) {
        bytes.append(repeating: 0x20, count: count)
    }

    /// A comma, a newline and 64 spaces: member separators and indents are slices of it,
    /// copied in one piece (a literal, so no array is made for it).
    private static let lineBreaks: StaticString = ",\n                                                                "

    /// `,` (when `comma`), a newline and `indent` spaces.
    @inline(__always)
    static func lineBreak(comma: Bool, indent: Int, to bytes: inout ByteBuffer) {
        guard indent <= 64 else {
            if comma { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\n"))
            return spaces(indent, to: &bytes)
        }
        lineBreaks.withUTF8Buffer { bytes.append(UnsafeBufferPointer(rebasing: $0[(comma ? 0 : 1)..<(2 + indent)])) }
    }

    /// The decimal digits of `value`, with a leading `-` when it is negative.
    static func decimal<Value: BinaryInteger>(_ value: Value, to bytes: inout ByteBuffer) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(UInt64(value.magnitude), to: &bytes)
    }

    /// The decimal digits of `value` (at least one).
    static func digits(_ value: UInt64, to bytes: inout ByteBuffer) {
        // 20 digits hold UInt64.max; filled from the end, then copied in one piece.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `digits` of `value` (not negative) with leading zeros up to `width`.
    static func padded(_ value: Int, width: Int, to bytes: inout ByteBuffer) {
        var length = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        bytes.append(repeating: UInt8(ascii: "0"), count: width - length)
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
