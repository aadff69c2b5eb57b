import Foundation
import RunnerPlan

/// Alibaba Cloud EMAS HTTPDNS JSON answers.
///
/// `{"host":"…","ips":["…"],"ipsv6":["…"],"ttl":60,"origin_ttl":60,"client_ip":"…"}`. `ips` comes
/// when the query asks IPv4, `ipsv6` when it asks IPv6; an answer with neither
/// (`{"host":…,"ttl":60}`, the Android SDK's own test) is an empty answer: no answer, not an
/// error. Errors come as `{"code":"InvalidAccount"}` with a 4xx status.
///
/// Fields the runner does not rely on never fail an answer, whatever they hold: `origin_ttl`,
/// `extra` (a string or an object), and `client_ip`, which is kept when it is an IP address and
/// left out otherwise.
enum AlibabaAnswerParser {
    static let formatName = "an Alibaba HTTPDNS answer"

    /// Parses one EMAS body for `host`.
    static func parse(host: String, status: Int, body: Data) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        let object = HTTPDNSJSON.object(body)
        // The service's own error code says more than the status; it comes without `ips`.
        if let object, let code = HTTPDNSJSON.member(object, "code") as? String,
            status != 200 || (HTTPDNSJSON.member(object, "ips") == nil && HTTPDNSJSON.member(object, "ipsv6") == nil)
        {
            throw HTTPDNSProblem(.serviceError, "\(HTTPDNSBodyQuote.escapeText(code, limit: 60)) (HTTP \(status))")
        }
        guard status == 200 else { throw .httpStatus(status, body) }
        guard let object else { throw .garbage(formatName, body) }
        let parsed: HTTPDNSAnswer
        do {
            parsed = try answer(object, host: host)
        } catch {
            throw .garbage(formatName, body, reason: error.reason)
        }
        guard !parsed.addresses.isEmpty else {
            let hasLists = HTTPDNSJSON.member(object, "ips") != nil || HTTPDNSJSON.member(object, "ipsv6") != nil
            throw HTTPDNSProblem(.noAnswer, hasLists ? "no answer (empty 'ips' and 'ipsv6')" : "no answer (no 'ips' or 'ipsv6')")
        }
        return parsed
    }

    /// The answer an object holds, addresses possibly empty.
    private static func answer(_ object: [String: Any], host: String) throws(HTTPDNSMalformed) -> HTTPDNSAnswer {
        if let value = HTTPDNSJSON.member(object, "host") {
            guard let answered = value as? String else { throw HTTPDNSMalformed("'host' is not a string") }
            guard HTTPDNSFields.sameHost(answered, host) else {
                throw HTTPDNSMalformed("answer for \(HTTPDNSBodyQuote.quoteText(answered)), not \(HTTPDNSBodyQuote.quoteText(host))")
            }
        }
        var addresses: [IPAddress] = []
        if let ips = HTTPDNSJSON.member(object, "ips") { addresses = try list(ips, key: "ips", family: .v4) }
        if let ipsv6 = HTTPDNSJSON.member(object, "ipsv6") {
            addresses += try list(ipsv6, key: "ipsv6", family: .v6)
        }
        let ttl = try HTTPDNSJSON.ttl(object, "ttl")
        // What the service saw, for the record only: an empty or odd one costs the answer nothing.
        let clientIP = (HTTPDNSJSON.member(object, "client_ip") as? String).flatMap(HTTPDNSFields.literal)?.text
        return HTTPDNSAnswer(addresses: addresses, ttl: ttl, clientIP: clientIP)
    }

    private static func list(_ value: Any, key: String, family: IPAddress.Family) throws(HTTPDNSMalformed) -> [IPAddress] {
        guard let texts = HTTPDNSJSON.strings(value) else { throw HTTPDNSMalformed("'\(key)' is not a list of strings") }
        var addresses: [IPAddress] = []
        for text in texts {
            addresses.append(try HTTPDNSFields.address(text, family: family, in: "'\(key)'"))
        }
        return addresses
    }
}
