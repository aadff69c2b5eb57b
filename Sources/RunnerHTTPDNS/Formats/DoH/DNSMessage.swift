internal import CDNSShim
import Foundation
import RunnerPlan

/// DNS messages through glibc's libresolv: the one file that calls `CDNSShim` (a query to a
/// DNS server, and the reading of every reply; RFC 8484 queries are `LDNSQuery`'s).
enum DNSMessage {
    /// The record types a lookup asks for.
    enum RecordType: Int32, Sendable {
        case a = 1
        case aaaa = 28
        case cname = 5
    }

    /// Asks the DNS server at `server`:`port` the `type` query for `name` (UDP, then TCP when
    /// the answer comes back truncated; a random ID and source port; the answer matched to the
    /// question). Blocks for at most `timeout`: call it off the engine's thread.
    static func exchange(
        server: IPAddress, port: Int, name: String, type: RecordType, timeout: Duration
    ) -> Result<Data, DNSExchangeFailure> {
        var answer = [UInt8](repeating: 0, count: 65_535)
        var failure = cdns_failure()
        let milliseconds = Int32(clamping: max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let capacity = Int32(answer.count)
        let length = answer.withUnsafeMutableBufferPointer { bytes in
            cdns_exchange(server.text, Int32(port), name, type.rawValue, milliseconds, bytes.baseAddress, capacity, &failure)
        }
        guard length >= 0 else {
            let reason = text(of: &failure.reason)
            switch failure.error {
            case ETIMEDOUT: return .failure(.timedOut)
            case ECONNREFUSED: return .failure(.refused)
            default: return .failure(.other(reason))
            }
        }
        return .success(Data(answer.prefix(Int(length))))
    }

    /// The header and answer records of a response, or why it is not one.
    static func response(_ message: Data) throws(HTTPDNSMalformed) -> DNSResponse {
        let bytes = [UInt8](message)
        let length = Int32(clamping: bytes.count)
        var header = cdns_header()
        guard cdns_read_header(bytes, length, &header) == 0 else {
            throw HTTPDNSMalformed("its header's counts do not fit its \(bytes.count) bytes")
        }
        var answers: [DNSRecord] = []
        answers.reserveCapacity(Int(header.answer_count))
        var record = cdns_record()
        for index in 0..<header.answer_count {
            guard cdns_read_answer(bytes, length, index, &record) == 0 else {
                throw HTTPDNSMalformed("answer record \(index + 1) is malformed")
            }
            answers.append(DNSRecord(
                name: text(of: &record.name), type: Int(record.type), isInternetClass: record.record_class == 1,
                ttl: Int(clamping: record.ttl), value: value(of: &record)))
        }
        return DNSResponse(
            rcode: Int(header.rcode), truncated: header.truncated != 0, isResponse: header.is_response != 0,
            answers: answers)
    }

    private static func value(of record: inout cdns_record) -> DNSRecord.Value {
        switch RecordType(rawValue: record.type) {
        case .a, .aaaa:
            // libresolv checked the length and inet_ntop wrote the text, so it parses.
            return IPAddress(text(of: &record.address)).map(DNSRecord.Value.address) ?? .other
        case .cname:
            return .alias(text(of: &record.target))
        case nil:
            return .other
        }
    }

    /// A NUL-terminated C char array as a String (bytes as UTF-8, invalid ones replaced).
    private static func text<Tuple>(of tuple: inout Tuple) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A DNS response as the DoH answer rules read it.
struct DNSResponse: Equatable, Sendable {
    /// RCODE: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED, …
    var rcode: Int
    /// TC: the answer was cut; what is there cannot be trusted to be all.
    var truncated: Bool
    /// QR: a response, not a query.
    var isResponse: Bool
    var answers: [DNSRecord]
}

/// One answer-section record.
struct DNSRecord: Equatable, Sendable {
    enum Value: Equatable, Sendable {
        case address(IPAddress)
        /// A CNAME's target.
        case alias(String)
        case other
    }

    /// The owner name, without the trailing dot.
    var name: String
    var type: Int
    var isInternetClass: Bool
    var ttl: Int
    var value: Value
}

/// Why a DNS server gave no message back.
package enum DNSExchangeFailure: Error, Equatable, Sendable {
    /// Nothing answered within the time allowed.
    case timedOut
    /// The server's port is closed (ICMP port unreachable, a refused TCP connection).
    case refused
    case other(String)
}
