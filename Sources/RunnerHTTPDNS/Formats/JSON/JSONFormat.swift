import Foundation
import RunnerPlan

/// Any JSON answer (in-house services, Volcengine): the URL as written, the addresses and TTL
/// picked from the reply by the map's `answer:` JSONPaths.
///
/// Strict: a selected value that is not an address string, or a TTL that is not a
/// non-negative number, is an error that quotes the path and what was there; nothing selected
/// (or `null`) is "no answer". The URL carries no family parameter (the service's own
/// query syntax is unknown): under `ip_version: 4` or `6` the other family is dropped.
struct JSONFormat: HTTPDNSWireFormat {
    static let formatName = "a JSON answer"

    var mapping: JSONAnswerMapping

    func queries(template: String, host: String, ipVersion: IPVersionPreference) -> [HTTPDNSQuery] {
        let family: IPAddress.Family? = switch ipVersion {
        case .v4: .v4
        case .v6: .v6
        case .any: nil
        }
        return [HTTPDNSQuery(url: HTTPDNSQueryURL.filled(template, host: host), family: family)]
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        guard (200..<300).contains(reply.status) else { throw .httpStatus(reply.status, reply.body) }
        guard let document = JSONDocument(parsing: reply.body) else { throw .garbage(Self.formatName, reply.body) }
        var addresses: [IPAddress] = []
        let ttl: Int?
        do throws(HTTPDNSMalformed) {
            addresses += try Self.addresses(at: mapping.ips, in: document, family: nil)
            if let ipv6 = mapping.ipv6 { addresses += try Self.addresses(at: ipv6, in: document, family: .v6) }
            ttl = try mapping.ttl.flatMap { path throws(HTTPDNSMalformed) in try Self.ttl(at: path, in: document) }
        } catch {
            throw .garbage(Self.formatName, reply.body, reason: error.reason)
        }
        var kept: [IPAddress] = []
        for address in addresses where query.family.map({ $0 == address.family }) ?? true && !kept.contains(address) {
            kept.append(address)
        }
        guard !kept.isEmpty else {
            let which = query.family.map { " \(HTTPDNSFields.familyName($0))" } ?? ""
            throw HTTPDNSProblem(.noAnswer, "no answer (no\(which) address at \(Self.paths(mapping, family: query.family)))")
        }
        return HTTPDNSAnswer(addresses: kept, ttl: ttl)
    }

    /// The addresses `path` selects: strings (an array of them is flattened), `null` skipped.
    private static func addresses(
        at path: JSONPath, in document: JSONDocument, family: IPAddress.Family?
    ) throws(HTTPDNSMalformed) -> [IPAddress] {
        var addresses: [IPAddress] = []
        for value in document.select(path) {
            let texts: [JSONValue]
            switch value {
            case .null: continue
            case .array(let items): texts = items
            case .string, .bool, .number, .object: texts = [value]
            }
            for text in texts {
                guard case .string(let string) = text else {
                    throw HTTPDNSMalformed("\(shown(path)) holds \(quote(text)), not an IP address string")
                }
                guard let address = HTTPDNSFields.literal(string) else {
                    throw HTTPDNSMalformed("\(shown(path)) holds \(HTTPDNSBodyQuote.quoteText(string)), not an IP address")
                }
                if let family, address.family != family {
                    throw HTTPDNSMalformed(
                        "\(shown(path)) holds the \(HTTPDNSFields.familyName(address.family)) address \(HTTPDNSBodyQuote.quoteText(string))")
                }
                addresses.append(address)
            }
        }
        return addresses
    }

    /// The TTL `path` selects: one non-negative number of seconds (a fraction rounded down),
    /// at most a year; nil when nothing (or `null`) is there.
    private static func ttl(at path: JSONPath, in document: JSONDocument) throws(HTTPDNSMalformed) -> Int? {
        let values = document.select(path).filter { $0 != .null }
        guard let value = values.first else { return nil }
        guard values.count == 1 else { throw HTTPDNSMalformed("\(shown(path)) selects \(values.count) values for the TTL, not one") }
        guard case .number(let seconds) = value, seconds.isFinite, seconds >= 0,
              seconds <= Double(HTTPDNSFields.maxTTL) else {
            throw HTTPDNSMalformed("\(shown(path)) holds \(quote(value)), not a TTL (seconds from 0 to a year)")
        }
        return Int(seconds)
    }

    /// The paths an answer of `family` is read from, for "no answer" texts.
    private static func paths(_ mapping: JSONAnswerMapping, family: IPAddress.Family?) -> String {
        var paths = [shown(mapping.ips)]
        if let ipv6 = mapping.ipv6, family != .v4 { paths.append(shown(ipv6)) }
        return paths.joined(separator: " or ")
    }

    /// A path as the plan wrote it, escaped like a body's bytes: a plan's path may hold any
    /// character, and texts stay printable.
    private static func shown(_ path: JSONPath) -> String {
        HTTPDNSBodyQuote.escapeText(path.text, limit: 80)
    }

    /// A JSON value as compact JSON text, quoted and cut short for a reason.
    private static func quote(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return HTTPDNSBodyQuote.quoteText(text)
    }
}
