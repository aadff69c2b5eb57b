import Foundation

/// Unpadded base64url (RFC 4648 §5), as RFC 8484 carries a DNS query in `?dns=`.
enum Base64URL {
    /// The bytes `text` encodes; nil for anything else, strictly: padding, the standard alphabet's
    /// `+` and `/`, or a length no encoding has.
    static func decode(_ text: String) -> [UInt8]? {
        let allowed = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        guard allowed, text.utf8.count % 4 != 1 else { return nil }
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
