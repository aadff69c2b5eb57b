/// HTTP header names compare ASCII case-insensitively (RFC 9110 §5.1). Done on UTF-8 bytes:
/// Foundation's `caseInsensitiveCompare` is locale-aware and costs tens of microseconds a call,
/// which adds up over every header of every response.
public enum HeaderName {
    /// Whether two header names are the same name.
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        // Names of other lengths differ: most comparisons end here (a native string knows its
        // UTF-8 count without counting).
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings are contiguous UTF-8: compared in place, without an iterator a byte.
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in left.indices where left[index] != right[index] && lowered(left[index]) != lowered(right[index]) {
                    return false
                }
                return true
            }
        }
        if let inPlace = inPlace ?? nil { return inPlace }
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (a?, b?) where a == b || lowered(a) == lowered(b): continue
            default: return false
            }
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
