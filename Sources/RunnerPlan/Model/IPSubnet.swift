#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An address prefix (`120.196.0.0/16`, `2001:db8::/56`): a network address, its host bits
/// zero, and the prefix's length.
public struct IPSubnet: Sendable, Hashable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    /// Why a text is not a subnet.
    public enum Problem: Error, Equatable {
        /// Not `ADDRESS/LENGTH` with an address and a length the family allows.
        case malformed
        /// The address has bits set past the prefix: the network is this one.
        case hostBitsSet(network: IPSubnet)
    }

    /// `ADDRESS/LENGTH`, the address the network's own (host bits zero).
    public static func parse(_ text: String) -> Result<IPSubnet, Problem> {
        guard let slash = text.firstIndex(of: "/"), let address = IPAddress(String(text[..<slash])) else { return .failure(.malformed) }
        let lengthText = text[text.index(after: slash)...]
        guard !lengthText.isEmpty, lengthText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              lengthText.count <= 3, let length = Int(lengthText), length <= address.bitCount
        else { return .failure(.malformed) }
        let subnet = IPSubnet(covering: address, prefixLength: length)
        return subnet.network == address ? .success(subnet) : .failure(.hostBitsSet(network: subnet))
    }

    /// The prefix of `prefixLength` bits that holds `address` (its host bits cleared).
    public init(covering address: IPAddress, prefixLength: Int) {
        let length = max(0, min(prefixLength, address.bitCount))
        var bytes = address.bytes
        for index in bytes.indices {
            let kept = max(0, min(8, length - index * 8))
            bytes[index] &= kept == 8 ? 0xFF : ~(0xFF >> kept)
        }
        network = IPAddress(bytes: bytes) ?? address
        self.prefixLength = length
    }

    /// Whether `address` lies in the prefix (an address of the other family never does).
    public func contains(_ address: IPAddress) -> Bool {
        address.family == network.family && IPSubnet(covering: address, prefixLength: prefixLength).network == network
    }

    public var description: String { "\(network.text)/\(prefixLength)" }
}

extension IPAddress {
    /// 32 for IPv4, 128 for IPv6.
    public var bitCount: Int { family == .v4 ? 32 : 128 }

    /// The address in network byte order: 4 bytes, or 16.
    public var bytes: [UInt8] {
        var v4 = in_addr()
        var v6 = in6_addr()
        if family == .v4, inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if family == .v6, inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return []
    }

    /// The address of these 4 or 16 bytes (network byte order); nil for another count.
    public init?(bytes: [UInt8]) {
        let family = bytes.count == 4 ? AF_INET : bytes.count == 16 ? AF_INET6 : -1
        guard family != -1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let rendered = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard rendered != nil else { return nil }
        self.init(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
