/// The one percent-encoder the runner puts text into URLs with (RFC 3986, byte by byte, UTF-8).
///
/// Every URL the runner sends is built through it — a plan's URL (`PlanURL`), a captured value
/// put into a path or query, an HTTPDNS query parameter — so the `Redactor` can mask a secret in
/// exactly the forms a sent URL carries it in: `forms(of:)` is derived from the same `encode`.
public enum PercentEncoding {
    /// Which bytes stay as they are.
    public enum Kept: Sendable, CaseIterable {
        /// RFC 3986 unreserved characters only (`A–Z a–z 0–9 - . _ ~`): a value that must not
        /// start another parameter or path segment (a captured value, an HTTPDNS parameter).
        case unreserved
        /// Everything a path or query may hold unencoded (pchar, `/` and `?`), and `%` when it
        /// starts a well-formed escape: what a URL written in a plan keeps of itself.
        case pathAndQuery
    }

    /// `text` with every byte that `kept` does not keep written `%XX` (hex digits upper-case
    /// unless `lowercaseHex`).
    public static func encode(_ text: String, keeping kept: Kept, lowercaseHex: Bool = false) -> String {
        let bytes = Array(text.utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count)
        let digits = lowercaseHex ? lowerDigits : upperDigits
        for (index, byte) in bytes.enumerated() {
            if keeps(byte, at: index, of: bytes, kept) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(digits[Int(byte >> 4)])
                encoded.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `encode(text, keeping: kept)` would return `text` as it is.
    public static func isEncoded(_ text: String, keeping kept: Kept) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.indices.allSatisfy { keeps(bytes[$0], at: $0, of: bytes, kept) }
    }

    /// Every form `secret` can take inside a sent URL that differs from the secret itself: each
    /// `Kept` encoding, with upper- and lower-case hex (servers and redirects echo either).
    public static func forms(of secret: String) -> [String] {
        // Unreserved bytes are kept by every class: such a secret (most tokens) has no other form.
        guard !secret.utf8.allSatisfy(isUnreserved) else { return [] }
        var forms: [String] = []
        for kept in Kept.allCases {
            for lowercase in [false, true] {
                let form = encode(secret, keeping: kept, lowercaseHex: lowercase)
                if form != secret, !forms.contains(form) { forms.append(form) }
            }
        }
        return forms
    }

    // MARK: Byte classes

    public static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    public static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// RFC 3986 unreserved: `A–Z a–z 0–9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// pchar, `/` and `?`: unreserved, sub-delims, `:` and `@` (`%` is judged apart).
    public static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<64: return pathBytesBelow64 >> UInt64(byte) & 1 == 1
        case 64..<128: return pathBytesFrom64 >> UInt64(byte - 64) & 1 == 1
        default: return false
        }
    }

    // One bit per ASCII byte for `A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * + , ; = : @ / ?`
    // (constants rather than a table: no lazy global to check on every byte).
    private static let pathBytesBelow64: UInt64 = 0xAFFF_FFD2_0000_0000
    private static let pathBytesFrom64: UInt64 = 0x47FF_FFFE_87FF_FFFF

    private static func keeps(_ byte: UInt8, at index: Int, of bytes: [UInt8], _ kept: Kept) -> Bool {
        switch kept {
        case .unreserved:
            return isUnreserved(byte)
        case .pathAndQuery:
            guard byte == UInt8(ascii: "%") else { return isPathByte(byte) }
            return index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
        }
    }

    private static let upperDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits = Array("0123456789abcdef".utf8)
}
