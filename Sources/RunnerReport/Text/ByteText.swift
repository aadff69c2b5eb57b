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

    // MARK: Eight bytes at a time

    /// The eight bytes at `offset` of `bytes` (which has at least eight from there), for the
    /// tests below: text scanned a word at a time, so that runs with nothing to escape (nearly
    /// all text) are passed over at a few instructions per eight bytes.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        // Little-endian whatever the machine: the first byte is the word's lowest.
        UInt64(littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The bytes of `bytes` from `offset` on (fewer than eight) as one word for a test that
    /// marks bytes and ORs the marks: with eight or more bytes in all, the last eight (the
    /// bytes read twice are marked the same both times); with fewer, those bytes padded with
    /// spaces, which no test here marks. A short text's last bytes then cost a word, not a
    /// loop a byte.
    @inline(__always)
    static func lastWord(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> UInt64 {
        if bytes.count >= 8 { return word(bytes, at: bytes.count - 8) }
        // Shifted in, not copied: a call to memcpy costs more than a few bytes' shifts.
        var word: UInt64 = 0
        var index = bytes.count
        while index > offset {
            index -= 1
            word = word &<< 8 | UInt64(bytes[index])
        }
        return word | 0x2020_2020_2020_2020 &<< UInt64((bytes.count - offset) * 8)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is below `limit` (at most 0x80), exactly: the
    /// low seven bits plus `0x80 - limit` reach 0x80 exactly when they are `limit` or more, with
    /// no carry into the next byte, and a byte of 0x80 or more has its high bit already.
    @inline(__always)
    static func bytes(below limit: UInt8, in word: UInt64) -> UInt64 {
        ~(((word & lowBits) &+ ones &* UInt64(0x80 - limit)) | word) & highBits
    }

    /// The high bit of each byte of `word` equal to `byte`, exactly.
    @inline(__always)
    static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        bytes(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// The high bits of `word`'s bytes of 0x80 and above.
    @inline(__always)
    static func nonASCII(in word: UInt64) -> UInt64 {
        word & highBits
    }

    /// Where in its word (from `word(_:at:)`) the first byte marked in `mask` is.
    @inline(__always)
    static func firstMarked(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount / 8
    }

    /// Calls `body` with the UTF-8 of `text`, read where it is for a native string.
    @inline(__always)
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // In place first: `String.withUTF8` needs a `var`, a copy of the string (a retain and a
        // release each call); only a string not stored as UTF-8 (bridged) takes that way.
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }
}
