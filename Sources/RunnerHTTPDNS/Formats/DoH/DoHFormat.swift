import Foundation
import RunnerPlan
import RunnerVocabulary

/// RFC 8484 DNS-over-HTTPS: one DNS message per record type (A, AAAA, both under `ip_version:
/// any`), by GET (`?dns=` base64url) or POST (`application/dns-message`), read as DNS.
struct DoHFormat: HTTPDNSWireFormat {
    static let mediaType = "application/dns-message"

    var method: HTTPDNSSpec.DoHMethod
    /// The user population asked as, sent as the EDNS Client Subnet option; nil: as this machine.
    var clientSubnet: IPSubnet? = nil

    func queries(template: String, host: String, ipVersion: IPVersionPreference) throws(HTTPDNSProblem) -> [HTTPDNSQuery] {
        let types: [DNSMessage.RecordType] = switch ipVersion {
        case .v4: [.a]
        case .v6: [.aaaa]
        case .any: [.a, .aaaa]
        }
        var queries: [HTTPDNSQuery] = []
        for type in types {
            guard let message = DoHQuery.message(host: host, type: type, clientSubnet: clientSubnet) else {
                throw HTTPDNSProblem(.unaskable, "\(HTTPDNSBodyQuote.quoteText(host)) cannot be put in a DNS query (an empty label, a label over 63 bytes or a name over 255)")
            }
            let accept = Header(name: "Accept", value: Self.mediaType)
            let typeName = type == .a ? "A" : "AAAA"
            switch method {
            case .get:
                queries.append(HTTPDNSQuery(
                    url: DoHQuery.getURL(template, message: message), headers: [accept],
                    label: "\(template) (\(typeName))", family: type == .a ? .v4 : .v6))
            case .post:
                queries.append(HTTPDNSQuery(
                    url: template, method: "POST", headers: [accept, Header(name: "Content-Type", value: Self.mediaType)],
                    body: message, label: "\(template) (\(typeName), POST)", family: type == .a ? .v4 : .v6))
            }
        }
        return queries
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        // RFC 8484 §5.1: a cache's `Age` is taken off the TTL; an unreadable one is ignored.
        let age = reply.header("Age").flatMap { Int($0) }
        return try DoHAnswerParser.parse(
            host: host, type: query.family == .v6 ? .aaaa : .a, status: reply.status, age: age, body: reply.body)
    }
}
