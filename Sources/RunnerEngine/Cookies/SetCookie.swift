import Foundation

/// One `Set-Cookie` header value, parsed per RFC 6265 §5.2; storage rules are applied by `CookieJar`.
struct SetCookie: Sendable, Equatable {
    var name: String
    var value: String
    /// The last valid `Max-Age`, in seconds (clamped to `Int` range); it wins over `expires`.
    var maxAge: Int?
    /// The last `Expires` that parsed as a cookie date.
    var expires: Date?
    /// The last non-empty `Domain`, lower-cased, without its leading dot (may end up empty).
    var domain: String?
    /// The last `Path`, or nil when absent or when the last one did not start with "/" (→ default-path).
    var path: String?
    var secure = false
    var httpOnly = false

    /// Longest `name` + `value` accepted, in bytes (RFC 6265 §6.1's minimum, as browsers enforce it).
    static let maximumNameValueBytes = 4096
    /// Longest attribute value honoured, in bytes; longer ones are ignored (RFC 6265bis §5.6).
    static let maximumAttributeValueBytes = 1024

    /// Parses `header`, or returns nil when the whole header must be ignored: no `=` in the
    /// name-value pair, an empty name, a control character, or a name and value over 4096 bytes.
    init?(parsing header: String) {
        let bytes = Array(header.utf8)
        // Control characters other than HTAB (RFC 6265bis §5.6): a header smuggling a CR/LF or a NUL is
        // hostile or broken, never half-used.
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else { return nil }

        let semicolon = UInt8(ascii: ";")
        let pairEnd = bytes.firstIndex(of: semicolon) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = Self.trimmed(pair[..<equals])
        let value = Self.trimmed(pair[(equals + 1)...])
        guard !name.isEmpty, name.count + value.count <= Self.maximumNameValueBytes else { return nil }
        self.name = String(decoding: name, as: UTF8.self)
        self.value = String(decoding: value, as: UTF8.self)

        let attributes = bytes[pairEnd...].split(separator: semicolon, omittingEmptySubsequences: true)
        for attribute in attributes {
            apply(attribute)
        }
    }

    /// Applies one `name[=value]` attribute (§5.2.1–5.2.6); unknown ones, SameSite included, are ignored.
    private mutating func apply(_ attribute: ArraySlice<UInt8>) {
        let equals = attribute.firstIndex(of: UInt8(ascii: "="))
        let nameBytes = Self.trimmed(attribute[..<(equals ?? attribute.endIndex)])
        let valueBytes = equals.map { Self.trimmed(attribute[($0 + 1)...]) } ?? []
        guard valueBytes.count <= Self.maximumAttributeValueBytes else { return }
        let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
        let value = String(decoding: valueBytes, as: UTF8.self)

        switch name {
        case "expires":
            if let date = CookieDate.parse(value) { expires = date }
        case "max-age":
            if let seconds = Self.parseMaxAge(valueBytes) { maxAge = seconds }
        case "domain":
            // An empty Domain is ignored (§5.2.3), not taken as "no domain".
            guard !value.isEmpty else { return }
            let withoutDot = value.hasPrefix(".") ? String(value.dropFirst()) : value
            domain = withoutDot.lowercased()
        case "path":
            path = value.hasPrefix("/") ? value : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        default:
            break
        }
    }

    /// `Max-Age` (§5.2.2): an optional "-" then digits only; anything else is ignored.
    private static func parseMaxAge(_ bytes: ArraySlice<UInt8>) -> Int? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? bytes.dropFirst() : bytes
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        // Saturate instead of overflowing: "Max-Age=99999999999999999999" means "practically forever".
        var magnitude = 0
        for digit in digits {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
            if overflow1 || overflow2 { magnitude = Int.max; break }
            magnitude = sum
        }
        return negative ? -magnitude : magnitude
    }

    /// Strips leading and trailing WSP (space, HTAB), the only whitespace RFC 6265 trims.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
            let last = bytes.lastIndex(where: { !isWhitespace($0) })
        else { return [] }
        return bytes[first...last]
    }
}
