/// Lower-case hex, as the auth schemes (and the lab's replicas of their services) write digests and ciphertext.
package enum Hex {
    /// `bytes` as lower-case hex digits, two per byte.
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    package enum Decoded: Equatable {
        case bytes([UInt8])
        /// The byte at this offset is not a hex digit.
        case notHex(offset: Int)
        case oddLength
    }

    /// The bytes hex text stands for; digits of either case.
    package static func decode(_ text: some Collection<UInt8>) -> Decoded {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for (offset, character) in text.enumerated() {
            guard let nibble = value(of: character) else { return .notHex(offset: offset) }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? .bytes(bytes) : .oddLength
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
