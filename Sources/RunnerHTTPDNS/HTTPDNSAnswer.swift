import Foundation
import RunnerPlan

/// What a service answered for one host (one query).
package struct HTTPDNSAnswer: Equatable, Sendable {
    /// As the service listed them (v4 before v6 within one answer).
    package var addresses: [IPAddress]
    /// Seconds, when the answer carried one.
    package var ttl: Int?
    /// The client address the service saw (dnspod `|clientip` suffix, alibaba `client_ip`,
    /// alibaba-v2 `data.cip`).
    package var clientIP: String?
    /// The CNAME chain a DNS answer went through to the addresses (`doh`, a DNS server).
    package var aliases: [String] = []

    package init(addresses: [IPAddress], ttl: Int? = nil, clientIP: String? = nil) {
        self.addresses = addresses
        self.ttl = ttl
        self.clientIP = clientIP
    }
}

/// Why an answer cannot be used; `description` is for humans and quotes the start of the body where relevant.
package struct HTTPDNSProblem: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// The service knows no address for the host (an empty answer, `0`, no A/AAAA record).
        case noAnswer
        /// The name does not exist (DoH NXDOMAIN).
        case noSuchName
        /// The body is not an answer in the expected format.
        case garbage
        /// The service reported an error (HTTP status, error code, DNS RCODE).
        case serviceError
        /// The host cannot be asked in this format (not a DNS name, for a DNS message).
        case unaskable
    }

    package var kind: Kind
    /// The whole human text, e.g. `InvalidAccount (HTTP 403)`.
    package var detail: String

    package init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { detail }
}

extension HTTPDNSProblem {
    /// A body that is not what `formatName` looks like, with an optional precise reason.
    static func garbage(_ formatName: String, _ body: Data, reason: String? = nil) -> HTTPDNSProblem {
        let what = reason.map { "not \(formatName) (\($0))" } ?? "not \(formatName)"
        return HTTPDNSProblem(.garbage, "\(what): \(HTTPDNSBodyQuote.quote(body))")
    }

    /// What `parse` reads from `body`: a reason it throws (`HTTPDNSMalformed`) makes the body
    /// garbage for `formatName`, with that reason; a problem it throws stands as it is.
    static func reading<Value>(_ formatName: String, _ body: Data, _ parse: () throws -> Value) throws(HTTPDNSProblem) -> Value {
        do {
            return try parse()
        } catch let malformed as HTTPDNSMalformed {
            throw .garbage(formatName, body, reason: malformed.reason)
        } catch let problem as HTTPDNSProblem {
            throw problem
        } catch {
            throw .garbage(formatName, body)
        }
    }

    /// A non-200 HTTP status, with the start of whatever came with it.
    static func httpStatus(_ status: Int, _ body: Data) -> HTTPDNSProblem {
        if body.isEmpty { return HTTPDNSProblem(.serviceError, "HTTP \(status) with an empty body") }
        return HTTPDNSProblem(.serviceError, "HTTP \(status): \(HTTPDNSBodyQuote.quote(body))")
    }
}

/// Quotes the start of a body for error texts: safe to print, short, and says how long it was.
enum HTTPDNSBodyQuote {
    /// Bytes of the body shown before `…`.
    static let limit = 60

    /// `'<html><body>Bad gat…' (812 bytes)`: printable ASCII kept, everything else escaped.
    static func quote(_ body: Data) -> String {
        var text = ""
        for byte in body.prefix(limit) {
            text += escape(byte)
        }
        if body.count > limit { text += "…" }
        return "'\(text)' (\(body.count) byte\(body.count == 1 ? "" : "s"))"
    }

    /// Escapes one byte; bytes, not characters, so invalid UTF-8 and control codes show as they are.
    static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "\\'"
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        case 0x20...0x7E: return String(UnicodeScalar(byte))
        default:
            let hex = String(byte, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }

    /// A short piece of text (an address, a host) quoted for a reason, escaped the same way.
    static func quoteText(_ text: String, limit: Int = 40) -> String {
        "'\(escapeText(text, limit: limit))'"
    }

    /// `text` escaped byte by byte, cut after `limit` bytes with `…`.
    static func escapeText(_ text: String, limit: Int = 40) -> String {
        let bytes = Array(text.utf8)
        let escaped = bytes.prefix(limit).map(escape).joined()
        return bytes.count > limit ? escaped + "…" : escaped
    }
}
