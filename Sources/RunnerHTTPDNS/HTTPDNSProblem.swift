import Foundation

/// Why a service could not be asked for a host or its answer cannot be used: what the format
/// made of the body, or what the map's auth scheme could not sign, encrypt or decrypt.
/// `description` is for humans: it quotes the start of the body where relevant, and never
/// holds an auth secret or key (the schemes never put them in a text).
package struct HTTPDNSProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, for the callers that word or count a problem by it (`detail` says it whole).
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
        /// The query URL lacks what the auth scheme needs (a `host` or `dn` to sign or encrypt).
        case query
        /// The answer is not what the auth scheme's service sends (not hex, wrong length,
        /// another key).
        case answer
        /// The key does not suit the auth scheme's cipher, or OpenSSL failed.
        case crypto
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
