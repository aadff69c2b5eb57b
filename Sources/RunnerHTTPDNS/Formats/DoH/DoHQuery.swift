import Foundation
import RunnerPlan

/// RFC 8484 queries: the DNS message, and the GET URL that carries it.
enum DoHQuery {
    /// The query message for `host` (ID 0, RD; for `clientSubnet`, its EDNS Client Subnet
    /// option), or nil when the name cannot be a DNS name.
    static func message(host: String, type: DNSMessage.RecordType, clientSubnet: IPSubnet? = nil) -> Data? {
        LDNSQuery.message(name: host, type: type, clientSubnet: clientSubnet)
    }

    /// `url` with `dns=` the message in base64url without padding (RFC 8484 §4.1), for GET.
    static func getURL(_ url: String, message: Data) -> String {
        HTTPDNSQueryURL.appending((name: "dns", value: base64URL(message)), to: url)
    }

    /// Base64url (RFC 4648 §5) without `=` padding.
    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
