import Foundation
import RunnerPlan

/// DNSPod / Tencent D+ plain-text answers.
///
/// Layouts: `ip;ip` with an optional `,ttl` (sent with `ttl=1`; without it the answer has no TTL);
/// the dual-stack `v4s,ttl-v6s,ttl` (`type=addrs`, either side `0` for none, so `v4s-0` has no
/// AAAA); batch lines `host.:ANSWER`; and the `|clientip` suffix (`clientip=1`), which belongs to
/// the whole answer: it ends the last line, and a batch line for any host carries it that way.
///
/// "No record" comes in five forms, all "no answer" (the service says so with HTTP 200): an
/// empty body, `0`, `0-0` (neither family), a batch line `host.:0`, and `host|clientip` (the
/// host and the client, with no `.:` and no address; as the last line, or the whole body).
///
/// A `|` on a line other than the last makes the body garbage. The vendor's documentation and
/// samples put the suffix once, after the last line; the Android SDK's batch parser matches a
/// `|client` on each line and keeps the last one it sees, so it does not settle the question.
/// The runner keeps to the documented grammar: a `|` mid-batch is not in it (two answers run
/// together, or a corrupted body), and a batch is never half trusted.
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
            let (unsuffixed, clientIP) = try withoutClientSuffix(lines)
            let answers: [Line]
            if unsuffixed.count == 1 {
                answers = [try singleLine(unsuffixed[0], quoted: lines[0], hasSuffix: clientIP != nil)]
            } else {
                answers = try batch(unsuffixed, quoted: lines, hasSuffix: clientIP != nil)
            }
            let ours = try line(for: host, in: answers)
            guard var answer = ours.answer else { try noAnswer(ours.quoted) }
            answer.clientIP = clientIP
            return answer
        }
    }

    /// One line read: the host it names (batch lines and `host|clientip`), its answer (nil: none),
    /// and the line as sent, for the reason.
    private struct Line {
        var name: Substring?
        var answer: HTTPDNSAnswer?
        var quoted: Substring
    }

    /// The lines with the last one's `|clientip` taken off, and that client.
    private static func withoutClientSuffix(_ lines: [Substring]) throws -> ([Substring], String?) {
        guard let last = lines.last else { throw HTTPDNSMalformed() }
        for (number, line) in lines.dropLast().enumerated() where line.contains("|") {
            throw HTTPDNSMalformed("'|clientip' on line \(number + 1) of \(lines.count), not the last")
        }
        let bars = last.split(separator: "|", omittingEmptySubsequences: false)
        switch bars.count {
        case 1:
            return (lines, nil)
        case 2:
            // `|clientip` alone answers nothing about any host.
            guard !bars[0].isEmpty, let client = HTTPDNSFields.literal(String(bars[1])) else { throw HTTPDNSMalformed() }
            return (Array(lines.dropLast()) + [bars[0]], client.text)
        default:
            throw HTTPDNSMalformed()
        }
    }

    /// A body of one line: a plain answer, a one-line batch, or `host|clientip`.
    private static func singleLine(_ text: Substring, quoted: Substring, hasSuffix: Bool) throws -> Line {
        do {
            return Line(name: nil, answer: try answer(text), quoted: quoted)
        } catch {
            // Not a plain answer: it may still be a one-line batch, unless what stands before the
            // colon is an IPv6 group (`240e::1;…`): then the plain reason is the one.
            if let (name, rest) = batchLine(text), !looksLikeIPv6Group(name) {
                return Line(name: name, answer: try answer(rest), quoted: quoted)
            }
            if hasSuffix, isBareHostName(text) { return Line(name: text, answer: nil, quoted: quoted) }
            throw error
        }
    }

    private static func noAnswer(_ line: Substring) throws(HTTPDNSProblem) -> Never {
        throw HTTPDNSProblem(.noAnswer, "no answer (\(HTTPDNSBodyQuote.quoteText(String(line))))")
    }

    /// Batch lines `host.:ANSWER`, one per host asked; the last may be `host` alone when the
    /// client suffix followed it (`host|clientip`: no record).
    private static func batch(_ lines: [Substring], quoted: [Substring], hasSuffix: Bool) throws -> [Line] {
        var read: [Line] = []
        for (index, line) in lines.enumerated() {
            if let (name, rest) = batchLine(line) {
                // Every line must parse, so a corrupted batch is never half trusted.
                read.append(Line(name: name, answer: try answer(rest), quoted: quoted[index]))
            } else if hasSuffix, index == lines.count - 1, isBareHostName(line) {
                read.append(Line(name: line, answer: nil, quoted: quoted[index]))
            } else {
                throw HTTPDNSMalformed()
            }
        }
        return read
    }

    /// The line that answers `host`: a plain answer, or the one batch line naming it.
    private static func line(for host: String, in lines: [Line]) throws -> Line {
        if lines.count == 1, lines[0].name == nil { return lines[0] }
        var found: Line?
        for line in lines {
            guard let name = line.name, HTTPDNSFields.sameHost(String(name), host) else { continue }
            if found != nil { throw HTTPDNSMalformed("two lines for \(HTTPDNSBodyQuote.quoteText(host))") }
            found = line
        }
        guard let found else {
            throw HTTPDNSProblem(
                .noAnswer,
                "no answer (batch of \(lines.count) line\(lines.count == 1 ? "" : "s") has none for \(HTTPDNSBodyQuote.quoteText(host)))")
        }
        return found
    }

    /// `name:rest` when `line` starts with a host name and a colon.
    private static func batchLine(_ line: Substring) -> (Substring, Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon]
        guard !name.isEmpty, name.utf8.allSatisfy(isHostNameByte) else { return nil }
        return (name, line[line.index(after: colon)...])
    }

    /// `240e` before `::1`: an IPv6 address's first group, not a host.
    private static func looksLikeIPv6Group(_ name: Substring) -> Bool {
        name.count <= 4 && name.allSatisfy(\.isHexDigit)
    }

    /// A host name standing alone (`host|clientip`): host-name bytes with a letter in them, so
    /// neither `0` nor a broken address (`1.2.3`) passes for one.
    private static func isBareHostName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isHostNameByte) && !looksLikeIPv6Group(text)
            && text.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
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

    /// One answer (a whole body or a batch line's right side, the client suffix taken off); nil
    /// when it says "none".
    private static func answer(_ main: Substring) throws -> HTTPDNSAnswer? {
        if main.isEmpty || main == "0" { return nil }

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
        return HTTPDNSAnswer(addresses: addresses, ttl: lists.compactMap(\.ttl).min())
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
