/// What a plan takes as a host name: the one rule for a static map's hosts and for the hosts
/// `runner init --har` writes.
package enum HostName {
    /// Letters (lower case), digits, `-`, `_` and dots: what a DNS name (or an IP literal used as a host) holds.
    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }
}
