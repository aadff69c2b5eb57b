import Foundation
import RunnerPlan

/// One lookup asked of a DNS server directly (`resolver: IP[:PORT]`): the message built and read
/// by the same libresolv code as the RFC 8484 `doh` format's, sent over UDP (TCP when truncated)
/// rather than HTTPS, and its answer read by the same rules (the CNAME chain inside the answer
/// followed; NXDOMAIN or no record is no answer; another RCODE is the server's error).
package enum DNSServerQuery {
    /// The addresses of `family` the server at `server`:`port` gives for `host`, or why none.
    /// Blocks: call it off the engine's thread.
    package static func lookup(
        host: String, family: IPAddress.Family, server: IPAddress, port: Int, timeout: Duration
    ) -> DNSServerReply {
        let type: DNSMessage.RecordType = family == .v4 ? .a : .aaaa
        switch DNSMessage.exchange(server: server, port: port, name: host, type: type, timeout: timeout) {
        case .failure(let failure):
            return DNSServerReply(rcode: nil, answer: .failure(.exchange(failure)))
        case .success(let message):
            return read(message, host: host, family: family)
        }
    }

    /// A server's message answering the `family` question for `host`, read by the `doh` format's
    /// parser (one codec, two transports); the `doh` fuzz target feeds it arbitrary bytes.
    package static func read(_ message: Data, host: String, family: IPAddress.Family) -> DNSServerReply {
        let type: DNSMessage.RecordType = family == .v4 ? .a : .aaaa
        let rcode = (try? DNSMessage.response(message)).map { DoHJSONAnswerParser.rcodeName($0.rcode) }
        do {
            let answer = try DoHAnswerParser.parse(host: host, type: type, status: 200, age: nil, body: message)
            return DNSServerReply(rcode: rcode, answer: .success(answer))
        } catch {
            return DNSServerReply(rcode: rcode, answer: .failure(.answer(error)))
        }
    }
}

/// A DNS server's reply to one question: its response code when a message came back, and the
/// addresses or why there are none.
package struct DNSServerReply: Equatable, Sendable {
    /// `NOERROR`, `NXDOMAIN`, `SERVFAIL`, … (nil: no readable message came back).
    package var rcode: String?
    package var answer: Result<HTTPDNSAnswer, DNSServerProblem>

    package init(rcode: String?, answer: Result<HTTPDNSAnswer, DNSServerProblem>) {
        self.rcode = rcode
        self.answer = answer
    }
}

/// Why a DNS server's lookup gave no address.
package enum DNSServerProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// No message came back.
    case exchange(DNSExchangeFailure)
    /// A message came back that holds no usable address: no such name, no record, an error
    /// RCODE or a malformed answer.
    case answer(HTTPDNSProblem)

    /// True when the name has no address of the asked type (NXDOMAIN or no record): with the
    /// other family's question answered, the host still resolves.
    package var isNoAnswer: Bool {
        guard case .answer(let problem) = self else { return false }
        return problem.kind == .noAnswer || problem.kind == .noSuchName
    }

    package var description: String {
        switch self {
        case .exchange(.timedOut): "no answer in time"
        case .exchange(.refused): "connection refused"
        case .exchange(.other(let reason)): reason
        case .answer(let problem): problem.detail
        }
    }
}
