#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address literal, validated and kept in canonical text form.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Family: Sendable, Hashable {
        case v4
        case v6
    }

    public let family: Family
    /// Canonical text (`inet_ntop`), without brackets.
    public let text: String

    /// Parses a literal; brackets around an IPv6 literal are accepted. Nil when it is not one.
    public init?(_ literal: String) {
        // A host name is told apart without inet_pton, and before any substring is made: an
        // address holds only hex digits, dots and colons, in brackets or not (every lookup asks
        // whether its host is an address, and most are names).
        guard literal.utf8.allSatisfy({ byte in
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
                || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
        }) else { return nil }
        var bare = Substring(literal)
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        guard !bare.isEmpty, !bare.utf8.contains(UInt8(ascii: "[")), !bare.utf8.contains(UInt8(ascii: "]")) else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        let input = String(bare)
        if inet_pton(AF_INET, input, &v4) == 1 {
            family = .v4
            text = Self.render(AF_INET, &v4, length: Int(INET_ADDRSTRLEN)) ?? input
        } else if inet_pton(AF_INET6, input, &v6) == 1 {
            family = .v6
            text = Self.render(AF_INET6, &v6, length: Int(INET6_ADDRSTRLEN)) ?? input
        } else {
            return nil
        }
    }

    /// The address as it stands in a URL or a `host:port` pair (IPv6 in brackets).
    public var urlHost: String { family == .v6 ? "[\(text)]" : text }

    public var description: String { text }

    private static func render<T>(_ family: Int32, _ address: inout T, length: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: length)
        let rendered = withUnsafePointer(to: &address) { inet_ntop(family, $0, &buffer, socklen_t(length)) }
        guard rendered != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
