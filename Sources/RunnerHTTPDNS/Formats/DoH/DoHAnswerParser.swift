import Foundation
import RunnerPlan

/// RFC 8484 answers: a DNS message (`application/dns-message`) for one query, A or AAAA.
///
/// The addresses are the answer's records of the asked type for the asked name, reached through
/// the CNAME chain inside the answer; NXDOMAIN or no such record is "no answer"; any other RCODE,
/// a truncated or malformed message and a non-2xx status are errors. The TTL is the smallest TTL
/// of the records used, less the response's HTTP `Age`.
enum DoHAnswerParser {
    static let formatName = "a DNS message"
    /// CNAMEs followed before the chain counts as a loop (resolvers stop around 8 to 16).
    static let maxAliases = 16

    /// Parses the response to the `type` query for `host`; `age` is the HTTP `Age` header.
    static func parse(
        host: String, type: DNSMessage.RecordType, status: Int, age: Int?, body: Data
    ) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        // RFC 8484 §4.2.1: every DNS answer, errors included, comes with a 2xx status.
        guard (200..<300).contains(status) else { throw .httpStatus(status, body) }
        let response: DNSResponse
        do {
            response = try DNSMessage.response(body)
        } catch {
            throw .garbage(formatName, body, reason: error.reason)
        }
        guard response.isResponse else { throw .garbage(formatName, body, reason: "a query, not a response") }
        guard !response.truncated else {
            throw HTTPDNSProblem(.serviceError, "truncated answer (TC set): the server could not send it whole")
        }
        switch response.rcode {
        case 0: break
        case 3: throw HTTPDNSProblem(.noSuchName, "no such name (NXDOMAIN)")
        default:
            throw HTTPDNSProblem(
                .serviceError, "DNS error \(DoHJSONAnswerParser.rcodeName(response.rcode)) (RCODE \(response.rcode))")
        }
        let (addresses, ttl, aliases): ([IPAddress], Int?, [String])
        do {
            (addresses, ttl, aliases) = try records(of: response, host: host, type: type)
        } catch {
            throw .garbage(formatName, body, reason: error.reason)
        }
        guard !addresses.isEmpty else {
            throw HTTPDNSProblem(.noAnswer, "no answer (no \(type == .a ? "A" : "AAAA") record)")
        }
        var answer = HTTPDNSAnswer(addresses: addresses, ttl: ttl.map { max(0, $0 - max(0, age ?? 0)) })
        answer.aliases = aliases
        return answer
    }

    /// The addresses of `type` for `host` through its CNAME chain, the smallest TTL used, and
    /// the chain's names.
    private static func records(
        of response: DNSResponse, host: String, type: DNSMessage.RecordType
    ) throws(HTTPDNSMalformed) -> ([IPAddress], Int?, [String]) {
        let answers = response.answers.filter(\.isInternetClass)
        var name = HTTPDNSFields.canonicalHost(host)
        var seen: Set<String> = [name]
        var ttl: Int?
        var aliases: [String] = []
        while let alias = answers.first(where: { HTTPDNSFields.canonicalHost($0.name) == name && $0.type == Int(DNSMessage.RecordType.cname.rawValue) }) {
            guard case .alias(let target) = alias.value else { throw HTTPDNSMalformed("a CNAME without a target") }
            name = HTTPDNSFields.canonicalHost(target)
            aliases.append(name)
            guard seen.insert(name).inserted, seen.count <= maxAliases + 1 else {
                throw HTTPDNSMalformed("CNAME loop or chain over \(maxAliases) names at \(HTTPDNSBodyQuote.quoteText(target))")
            }
            ttl = min(ttl ?? alias.ttl, alias.ttl)
        }
        let family: IPAddress.Family = type == .a ? .v4 : .v6
        var addresses: [IPAddress] = []
        for record in answers where record.type == Int(type.rawValue) && HTTPDNSFields.canonicalHost(record.name) == name {
            guard case .address(let address) = record.value, address.family == family else {
                throw HTTPDNSMalformed("a \(type == .a ? "A" : "AAAA") record without an address")
            }
            if !addresses.contains(address) { addresses.append(address) }
            ttl = min(ttl ?? record.ttl, record.ttl)
        }
        return (addresses, addresses.isEmpty ? nil : ttl, aliases)
    }
}
