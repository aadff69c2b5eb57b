import Foundation
import RunnerPlan

/// Alibaba Cloud EMAS `/v2/d` answers: an envelope
/// `{"code":"success","mode":"0","data":{"answers":[{"dn":"…","v4":{"ips":[…],"ttl":60},"v6":{…}}]}}`
/// whose `data` is that object, or a string holding it (mode 0, and what the `alibaba-v2`
/// scheme makes of an encrypted `data`). Any other `code` is the service's error. A family
/// with an empty `ips`, or a `no_ip_code`, has no address.
///
/// `mode` may be a string (`"0"`) or a number (`0`), and plain answers may leave it out (the Node
/// SDK's sample): absent reads as mode 0. `data.cip`, the client the service saw, is kept as the
/// answer's client when it is an IP address, and otherwise ignored.
enum AlibabaV2AnswerParser {
    static let formatName = "an Alibaba /v2/d answer"

    /// Parses one `/v2/d` body for `host`, keeping the family asked (nil: both).
    static func parse(host: String, family: IPAddress.Family?, status: Int, body: Data) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        let envelope = HTTPDNSJSON.object(body)
        if let envelope, let code = HTTPDNSJSON.member(envelope, "code") as? String, code != "success" {
            throw HTTPDNSProblem(.serviceError, "\(HTTPDNSBodyQuote.escapeText(code, limit: 60)) (HTTP \(status))")
        }
        guard status == 200 else { throw .httpStatus(status, body) }
        guard let envelope else { throw .garbage(formatName, body) }
        return try HTTPDNSProblem.reading(formatName, body) {
            let data = try self.data(in: envelope)
            let entry = try self.entry(in: data, host: host)
            var addresses: [IPAddress] = []
            var ttls: [Int] = []
            var reasons: [String] = []
            for (key, keyFamily) in [("v4", IPAddress.Family.v4), ("v6", .v6)] where family == nil || family == keyFamily {
                guard let value = HTTPDNSJSON.member(entry, key) else { continue }
                guard let record = value as? [String: Any] else { throw HTTPDNSMalformed("'\(key)' is not an object") }
                let (found, ttl, reason) = try self.family(record, key: key, family: keyFamily)
                addresses += found
                if let ttl, !found.isEmpty { ttls.append(ttl) }
                if let reason { reasons.append(reason) }
            }
            guard !addresses.isEmpty else {
                let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"
                throw HTTPDNSProblem(.noAnswer, "no answer (no 'ips' for \(family.map(HTTPDNSFields.familyName) ?? "either family"))\(why)")
            }
            return HTTPDNSAnswer(addresses: addresses, ttl: ttls.min(), clientIP: clientIP(in: data))
        }
    }

    /// The envelope's `mode` as text (`"1"` for `"1"` or `1`); nil when absent, that is plain.
    /// Any other value comes back as written, for a reason to quote.
    static func mode(of envelope: [String: Any]) -> String? {
        guard let value = HTTPDNSJSON.member(envelope, "mode") else { return nil }
        if let text = value as? String { return text }
        if let number = HTTPDNSJSON.integer(value) { return String(number) }
        return "\(value)"
    }

    /// `data.cip`, the client address the service answered for, when it is one.
    private static func clientIP(in data: [String: Any]) -> String? {
         (HTTPDNSJSON.member(data, "cip") as? String).flatMap(HTTPDNSFields.literal)?.text
    }

    /// The answer for `host` in the envelope's `data`.
    private static func entry(in data: [String: Any], host: String) throws(HTTPDNSMalformed) -> [String: Any] {
        guard let value = HTTPDNSJSON.member(data, "answers") else { throw HTTPDNSMalformed("no 'answers'") }
        guard let answers = value as? [Any] else { throw HTTPDNSMalformed("'answers' is not a list") }
        var named: [String] = []
        for item in answers {
            guard let answer = item as? [String: Any] else { throw HTTPDNSMalformed("an answer is not an object") }
            guard let dn = HTTPDNSJSON.member(answer, "dn") as? String else { throw HTTPDNSMalformed("an answer has no 'dn' string") }
            if HTTPDNSFields.sameHost(dn, host) { return answer }
            named.append(HTTPDNSBodyQuote.quoteText(dn))
        }
        throw HTTPDNSMalformed(named.isEmpty ? "no answers" : "answers for \(named.joined(separator: ", ")), not \(HTTPDNSBodyQuote.quoteText(host))")
    }

    /// The envelope's `data` object, read from the string that holds it when it is one.
    private static func data(in envelope: [String: Any]) throws(HTTPDNSMalformed) -> [String: Any] {
        guard let value = HTTPDNSJSON.member(envelope, "data") else { throw HTTPDNSMalformed("no 'data'") }
        let data: [String: Any]
        if let object = value as? [String: Any] {
            data = object
        } else if let text = value as? String {
            guard let object = HTTPDNSJSON.object(Data(text.utf8)) else {
                let mode = mode(of: envelope) ?? "0"
                throw HTTPDNSMalformed(
                    mode == "0" ? "'data' is a string that is not a JSON object"
                        : "'data' is encrypted (mode \(HTTPDNSBodyQuote.escapeText(mode, limit: 8))) and the map's auth does not encrypt")
            }
            data = object
        } else {
            throw HTTPDNSMalformed("'data' is neither an object nor a string")
        }
        return data
    }

    /// One family's addresses, TTL, and why it has none when it says (`no_ip_code`).
    private static func family(
        _ record: [String: Any], key: String, family: IPAddress.Family
    ) throws(HTTPDNSMalformed) -> ([IPAddress], Int?, String?) {
        var addresses: [IPAddress] = []
        if let value = HTTPDNSJSON.member(record, "ips") {
            guard let texts = HTTPDNSJSON.strings(value) else { throw HTTPDNSMalformed("'\(key).ips' is not a list of strings") }
            for text in texts {
                addresses.append(try HTTPDNSFields.address(text, family: family, in: "'\(key).ips'"))
            }
        }
        let ttl = try HTTPDNSJSON.ttl(record, "ttl")
        let reason = HTTPDNSJSON.member(record, "no_ip_code").map { "\(key) no_ip_code \(HTTPDNSBodyQuote.escapeText("\($0)", limit: 40))" }
        return (addresses, ttl, reason)
    }
}
