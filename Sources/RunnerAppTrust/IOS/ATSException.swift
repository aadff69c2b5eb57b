/// One `NSExceptionDomains` entry of App Transport Security, its defaults filled in.
public struct ATSException: Sendable, Hashable {
    /// The key lower-cased, one trailing dot dropped: a name, an address or a CIDR range.
    public var key: String
    public var includesSubdomains: Bool
    public var allowsInsecureHTTPLoads: Bool
    /// `"1.0"`…`"1.3"` (from `TLSv1.0`…`TLSv1.3`; `"1.2"` by default).
    public var minimumTLSVersion: String
    public var requiresForwardSecrecy: Bool
    /// Where the key is written (1 in a binary plist).
    public var line: Int

    public init(
        key: String, includesSubdomains: Bool, allowsInsecureHTTPLoads: Bool, minimumTLSVersion: String, requiresForwardSecrecy: Bool,
        line: Int
    ) {
        self.key = key
        self.includesSubdomains = includesSubdomains
        self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.line = line
    }

    /// The address range of an IP or CIDR key (an address alone is its own /32 or /128), nil for a name.
    var addressRange: (network: IPLiteral, prefixLength: Int)? {
        guard let slash = key.firstIndex(of: "/") else {
            return IPLiteral(key).map { ($0, $0.bitCount) }
        }
        let lengthText = key[key.index(after: slash)...]
        guard let network = IPLiteral(String(key[..<slash])), !lengthText.isEmpty, lengthText.utf8.count <= 3,
              lengthText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let length = Int(lengthText), length <= network.bitCount
        else { return nil }
        return (network, length)
    }
}
