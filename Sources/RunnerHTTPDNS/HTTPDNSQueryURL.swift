import Foundation
import RunnerPlan

/// Builds the query URLs of the three formats from a plan's URL template.
enum HTTPDNSQueryURL {
    /// One URL per query to send, in order (doh-json under `.any`: A then AAAA).
    static func urls(
        template: String, host: String, format: HTTPDNSSpec.Format, ipVersion: IPVersionPreference
    ) -> [String] {
        let base = template.replacingOccurrences(of: "{host}", with: encode(host))
        let parameters = familyParameters(format: format, ipVersion: ipVersion)
        var urls: [String] = []
        for parameter in parameters {
            let url = appending(parameter, to: base)
            // A template that fixes the parameter itself yields the same URL twice: ask once.
            if !urls.contains(url) { urls.append(url) }
        }
        return urls
    }

    /// The family parameter per query, as `(name, value)`; nil means "add nothing" (the service default).
    static func familyParameters(
        format: HTTPDNSSpec.Format, ipVersion: IPVersionPreference
    ) -> [(name: String, value: String)?] {
        switch (format, ipVersion) {
        case (.dnspod, .v4): [nil]
        case (.dnspod, .v6): [("type", "aaaa")]
        case (.dnspod, .any): [("type", "addrs")]
        case (.alibaba, .v4): [nil]
        case (.alibaba, .v6): [("query", "6")]
        case (.alibaba, .any): [("query", "4,6")]
        case (.dohJSON, .v4): [("type", "A")]
        case (.dohJSON, .v6): [("type", "AAAA")]
        case (.dohJSON, .any): [("type", "A"), ("type", "AAAA")]
        }
    }

    /// `url` with `name=value` added to its query, unless the query already sets `name`.
    static func appending(_ parameter: (name: String, value: String)?, to url: String) -> String {
        guard let parameter else { return url }
        // The fragment, if a template has one, stays last.
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let beforeFragment = url[..<fragmentStart]
        let fragment = url[fragmentStart...]
        let pair = "\(parameter.name)=\(parameter.value)"
        guard let questionMark = beforeFragment.firstIndex(of: "?") else {
            return "\(beforeFragment)?\(pair)\(fragment)"
        }
        let query = beforeFragment[beforeFragment.index(after: questionMark)...]
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        if names.contains(where: { $0 == parameter.name }) { return url }
        let separator = query.isEmpty || query.hasSuffix("&") ? "" : "&"
        return "\(beforeFragment)\(separator)\(pair)\(fragment)"
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), byte by byte.
    static func encode(_ host: String) -> String {
        var encoded = ""
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
