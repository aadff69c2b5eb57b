import Foundation
import RunnerPlan

/// DNS-over-HTTPS JSON answers (`application/dns-json`, as Google and Cloudflare serve them).
///
/// `{"Status":0,"Question":[…],"Answer":[{"name":"x.","type":1,"TTL":300,"data":"1.2.3.4"}]}`;
/// `Status` is the DNS RCODE. CNAME and other record types on the way are skipped.
enum DoHJSONAnswerParser {
    static let formatName = "a DoH JSON answer"

    /// Parses one DoH JSON body for `host`.
    static func parse(host: String, status: Int, body: Data) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        guard status == 200 else { throw .httpStatus(status, body) }
        guard let object = HTTPDNSJSON.object(body) else { throw .garbage(formatName, body) }
        guard let statusValue = HTTPDNSJSON.member(object, "Status") else {
            throw .garbage(formatName, body, reason: "no 'Status'")
        }
        // RCODEs are 4 bits, 12 with EDNS.
        guard let rcode = HTTPDNSJSON.integer(statusValue), (0...4095).contains(rcode) else {
            throw .garbage(formatName, body, reason: "'Status' is not a DNS RCODE")
        }
        switch rcode {
        case 0: break
        case 3: throw HTTPDNSProblem(.noSuchName, "no such name (NXDOMAIN)")
        default: throw HTTPDNSProblem(.serviceError, "DNS error \(rcodeName(rcode)) (Status \(rcode))")
        }
        let parsed: HTTPDNSAnswer
        do {
            parsed = try answer(object, host: host)
        } catch {
            throw .garbage(formatName, body, reason: error.reason)
        }
        guard !parsed.addresses.isEmpty else { throw HTTPDNSProblem(.noAnswer, "no answer (no A or AAAA record)") }
        return parsed
    }

    /// The A and AAAA records of a NOERROR answer (v4 first), possibly none.
    private static func answer(_ object: [String: Any], host: String) throws(HTTPDNSMalformed) -> HTTPDNSAnswer {
        if let value = HTTPDNSJSON.member(object, "Question") {
            guard let questions = value as? [Any] else { throw HTTPDNSMalformed("'Question' is not a list") }
            // The question echoes the name asked: a different one means an answer for someone else.
            if let first = questions.first {
                guard let question = first as? [String: Any], let name = HTTPDNSJSON.member(question, "name") as? String else {
                    throw HTTPDNSMalformed("'Question' has no name")
                }
                guard HTTPDNSFields.sameHost(name, host) else {
                    throw HTTPDNSMalformed("question for \(HTTPDNSBodyQuote.quoteText(name)), not \(HTTPDNSBodyQuote.quoteText(host))")
                }
            }
        }
        guard let value = HTTPDNSJSON.member(object, "Answer") else { return HTTPDNSAnswer(addresses: []) }
        guard let records = value as? [Any] else { throw HTTPDNSMalformed("'Answer' is not a list") }
        var v4: [IPAddress] = []
        var v6: [IPAddress] = []
        var ttls: [Int] = []
        for (index, item) in records.enumerated() {
            let label = "record \(index + 1)"
            guard let record = item as? [String: Any] else { throw HTTPDNSMalformed("\(label) is not an object") }
            guard let typeValue = HTTPDNSJSON.member(record, "type"), let type = HTTPDNSJSON.integer(typeValue) else {
                throw HTTPDNSMalformed("\(label) has no integer 'type'")
            }
            let family: IPAddress.Family
            switch type {
            case 1: family = .v4
            case 28: family = .v6
            default: continue  // CNAME (5) and anything else on the way to the addresses.
            }
            guard let data = HTTPDNSJSON.member(record, "data") as? String else {
                throw HTTPDNSMalformed("\(label) has no string 'data'")
            }
            let address = try HTTPDNSFields.address(data, family: family, in: "\(label) (type \(type))")
            if family == .v4 { v4.append(address) } else { v6.append(address) }
            let ttl: Int?
            do {
                ttl = try HTTPDNSJSON.ttl(record, "TTL")
            } catch {
                throw HTTPDNSMalformed("\(label): \(error.reason ?? "bad 'TTL'")")
            }
            guard let ttl else { throw HTTPDNSMalformed("\(label) has no 'TTL'") }
            ttls.append(ttl)
        }
        return HTTPDNSAnswer(addresses: v4 + v6, ttl: ttls.min())
    }

    /// The RCODE's mnemonic (RFC 1035, 2136, 6895), or `RCODE n`.
    static func rcodeName(_ rcode: Int) -> String {
        let names = [
            0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN", 4: "NOTIMP", 5: "REFUSED", 6: "YXDOMAIN",
            7: "YXRRSET", 8: "NXRRSET", 9: "NOTAUTH", 10: "NOTZONE", 11: "DSOTYPENI", 16: "BADVERS",
        ]
        return names[rcode] ?? "RCODE \(rcode)"
    }
}
