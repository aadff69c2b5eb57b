#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address literal (brackets accepted), as the trust rules compare addresses.
struct IPLiteral: Sendable, Hashable {
    /// 4 or 16 bytes, network order.
    let bytes: [UInt8]

    init?(_ literal: String) {
        var bare = Substring(literal)
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        guard !bare.isEmpty, bare.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || Self.isHex($0) }) else {
            return nil
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        let text = String(bare)
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    var bitCount: Int { bytes.count * 8 }

    /// 127.0.0.0/8, ::1, 169.254.0.0/16 and fe80::/10: the addresses ATS leaves alone.
    var isLoopbackOrLinkLocal: Bool {
        if bytes.count == 4 { return bytes[0] == 127 || (bytes[0] == 169 && bytes[1] == 254) }
        let loopback = bytes.dropLast().allSatisfy { $0 == 0 } && bytes[15] == 1
        return loopback || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
    }

    /// Whether the first `prefixLength` bits equal `network`'s (never across families).
    func isIn(_ network: IPLiteral, prefixLength: Int) -> Bool {
        guard network.bytes.count == bytes.count, prefixLength >= 0, prefixLength <= bitCount else { return false }
        for index in bytes.indices {
            let kept = max(0, min(8, prefixLength - index * 8))
            let mask: UInt8 = kept == 8 ? 0xFF : ~(0xFF >> kept)
            if bytes[index] & mask != network.bytes[index] & mask { return false }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
