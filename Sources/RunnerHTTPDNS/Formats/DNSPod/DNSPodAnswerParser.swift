import Foundation
import RunnerPlan

/// DNSPod / Tencent D+ plain-text answers.
///
/// Layouts: `ip;ip` with an optional `,ttl`; the dual-stack `v4s,ttl-v6s,ttl` (`type=addrs`,
/// either side `0` for none); an optional `|clientip` suffix; batch lines `host.:ANSWER`.
/// `0` or an empty body means no answer, and the service says so with HTTP 200.
enum DNSPodAnswerParser {
    static let formatName = "a DNSPod answer"

    /// Parses one DNSPod body for `host`.
    static func parse(host: String, status: Int, body: Data) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        guard status == 200 else { throw .httpStatus(status, body) }
        // Every valid answer is ASCII; anything else is some other document.
        guard body.allSatisfy({ $0 < 0x80 }) else { throw .garbage(formatName, body) }
        let text = trimmed(Substring(String(decoding: body, as: UTF8.self)))
        if text.isEmpty { throw HTTPDNSProblem(.noAnswer, "no answer (empty body)") }

        // `\r\n` is one Character in Swift: split on it as well as on `\n`.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(trimmed)
        return try HTTPDNSProblem.reading(formatName, body) {
            if lines.count == 1 {
                let plain: HTTPDNSAnswer?
                do {
                    plain = try answer(lines[0])
                } catch {
                    // Not a plain answer: it may still be a one-line batch, unless what stands
                    // before the colon is an IPv6 group (`240e::1;…`): then the plain reason is the one.
                    guard let (name, _) = batchLine(lines[0]), !(name.count <= 4 && name.allSatisfy(\.isHexDigit)) else {
                        throw error
                    }
                    return try batch(lines, host: host)
                }
                guard let plain else { try noAnswer(lines[0]) }
                return plain
            }
            return try batch(lines, host: host)
        }
    }

    private static func noAnswer(_ line: Substring) throws(HTTPDNSProblem) -> Never {
        throw HTTPDNSProblem(.noAnswer, "no answer (\(HTTPDNSBodyQuote.quoteText(String(line))))")
    }

    /// Batch lines `host.:ANSWER`, one per host asked; the answer is the line for `host`.
    private static func batch(_ lines: [Substring], host: String) throws -> HTTPDNSAnswer {
        var found: (line: Substring, answer: HTTPDNSAnswer?)?
        for line in lines {
            guard let (name, rest) = batchLine(line) else { throw HTTPDNSMalformed() }
            // Every line must parse, so a corrupted batch is never half trusted.
            let parsed = try answer(rest)
            guard HTTPDNSFields.sameHost(String(name), host) else { continue }
            if found != nil { throw HTTPDNSMalformed("two lines for \(HTTPDNSBodyQuote.quoteText(host))") }
            found = (line, parsed)
        }
        guard let found else {
            throw HTTPDNSProblem(
                .noAnswer,
                "no answer (batch of \(lines.count) line\(lines.count == 1 ? "" : "s") has none for \(HTTPDNSBodyQuote.quoteText(host)))")
        }
        guard let answer = found.answer else { try noAnswer(found.line) }
        return answer
    }

    /// `name:rest` when `line` starts with a host name and a colon.
    private static func batchLine(_ line: Substring) -> (Substring, Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon]
        guard !name.isEmpty, name.utf8.allSatisfy(isHostNameByte) else { return nil }
        return (name, line[line.index(after: colon)...])
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// One answer (a whole body or a batch line's right side); nil when it says "none".
    private static func answer(_ text: Substring) throws -> HTTPDNSAnswer? {
        if text.isEmpty { return nil }
        var main = text
        var clientIP: String?
        let bars = text.split(separator: "|", omittingEmptySubsequences: false)
        if bars.count == 2 {
            guard let client = HTTPDNSFields.literal(String(bars[1])) else { throw HTTPDNSMalformed() }
            main = bars[0]
            clientIP = client.text
        } else if bars.count > 2 {
            throw HTTPDNSMalformed()
        }
        if main == "0" { return nil }

        let lists: [(addresses: [IPAddress], ttl: Int?)]
        let dashes = dualStackSeparators(main)
        switch dashes.count {
        case 0:
            lists = [try list(main, family: nil)]
        case 1:
            let left = main[..<dashes[0]]
            let right = main[main.index(after: dashes[0])...]
            lists = [
                left == "0" ? ([], nil) : try list(left, family: .v4),
                right == "0" ? ([], nil) : try list(right, family: .v6),
            ]
        default:
            throw HTTPDNSMalformed()
        }
        let addresses = lists.flatMap(\.addresses)
        if addresses.isEmpty { return nil }
        return HTTPDNSAnswer(addresses: addresses, ttl: lists.compactMap(\.ttl).min(), clientIP: clientIP)
    }

    /// Where `v4s,ttl-v6s,ttl` splits: a `-` not right after a `,` (that one is a negative TTL).
    private static func dualStackSeparators(_ text: Substring) -> [Substring.Index] {
        text.indices.filter { index in
            text[index] == "-" && (index == text.startIndex || text[text.index(before: index)] != ",")
        }
    }

    /// `ip;ip[,ttl]`, all of one family (`family`, or the first address's when nil).
    private static func list(_ text: Substring, family: IPAddress.Family?) throws -> (addresses: [IPAddress], ttl: Int?) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw HTTPDNSMalformed() }
        var addresses: [IPAddress] = []
        for element in parts[0].split(separator: ";", omittingEmptySubsequences: false) {
            guard let address = HTTPDNSFields.literal(String(element)) else { throw HTTPDNSMalformed() }
            let expected = family ?? addresses.first?.family ?? address.family
            guard address.family == expected else {
                let place = family == nil ? "a list of \(HTTPDNSFields.familyName(expected)) addresses"
                    : "the \(HTTPDNSFields.familyName(expected)) list"
                throw HTTPDNSMalformed("\(HTTPDNSFields.familyName(address.family)) address \(HTTPDNSBodyQuote.quoteText(String(element))) in \(place)")
            }
            addresses.append(address)
        }
        guard parts.count == 2 else { return (addresses, nil) }
        return (addresses, try ttl(parts[1]))
    }

    /// Decimal seconds, optionally negative only so the reason can say so.
    private static func ttl(_ text: Substring) throws -> Int {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw HTTPDNSMalformed()
        }
        // Too many digits for an Int is out of range all the same.
        guard let value = Int(text) else { throw HTTPDNSMalformed("ttl \(text) out of range") }
        guard HTTPDNSFields.isPlausibleTTL(value) else { throw HTTPDNSMalformed("ttl \(value) out of range") }
        return value
    }

    /// Without surrounding blanks and line ends (a trailing newline is common and harmless).
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }
}
