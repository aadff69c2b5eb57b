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
    ) -> Result<HTTPDNSAnswer, DNSServerProblem> {
        let type: DNSMessage.RecordType = family == .v4 ? .a : .aaaa
        switch DNSMessage.exchange(server: server, port: port, name: host, type: type, timeout: timeout) {
        case .failure(let failure):
            return .failure(.exchange(failure))
        case .success(let message):
            do {
                return .success(try DoHAnswerParser.parse(host: host, type: type, status: 200, age: nil, body: message))
            } catch {
                return .failure(.answer(error))
            }
        }
    }
}

/// Why a DNS server's lookup gave no address.
package enum DNSServerProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// No message came back.
    case exchange(DNSExchangeFailure)
    /// A message came back that holds no usable address: no such name, no record, an error
    /// RCODE or a malformed answer.
    case answer(HTTPDNSProblem)

    package var description: String {
        switch self {
        case .exchange(.timedOut): "no answer in time"
        case .exchange(.refused): "connection refused"
        case .exchange(.other(let reason)): reason
        case .answer(let problem): problem.detail
        }
    }
}
