import Foundation
import RunnerPlan

/// Why a body is not the expected format; a nil reason for "not this format at all" (the quote
/// of the body says enough), a reason when the shape is right but a field is not.
struct HTTPDNSMalformed: Error {
    var reason: String?

    init(_ reason: String? = nil) {
        self.reason = reason
    }
}

/// Field checks the three formats share.
enum HTTPDNSFields {
    /// The largest TTL taken seriously: one year. Anything above is a broken service.
    static let maxTTL = 365 * 24 * 3600

    /// Characters an IP literal can contain; checked before `inet_pton`, which would stop at a NUL.
    private static let literalCharacters = Set("0123456789abcdefABCDEF.:".utf8)

    /// A bare IP literal (no brackets, no zone, nothing after a NUL), or nil.
    static func literal(_ text: String) -> IPAddress? {
        guard !text.isEmpty, text.utf8.allSatisfy(literalCharacters.contains) else { return nil }
        return IPAddress(text)
    }

    /// An IP address of `family`; `place` names where it stood, for the reason (`'ips'`, …).
    static func address(_ text: String, family: IPAddress.Family, in place: String) throws(HTTPDNSMalformed) -> IPAddress {
        guard let address = literal(text) else {
            throw HTTPDNSMalformed("bad IP address \(HTTPDNSBodyQuote.quoteText(text)) in \(place)")
        }
        guard address.family == family else {
            throw HTTPDNSMalformed("\(familyName(address.family)) address \(HTTPDNSBodyQuote.quoteText(text)) in \(place)")
        }
        return address
    }

    static func familyName(_ family: IPAddress.Family) -> String {
        family == .v4 ? "IPv4" : "IPv6"
    }

    /// Whether a TTL in seconds is believable: 0…one year.
    static func isPlausibleTTL(_ seconds: Int) -> Bool {
        (0...maxTTL).contains(seconds)
    }

    /// Host names compared the DNS way: case-insensitive, a trailing dot optional.
    static func sameHost(_ a: String, _ b: String) -> Bool {
        canonicalHost(a) == canonicalHost(b)
    }

    static func canonicalHost(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}
