import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// RFC 8484 wire-format DoH: queries built and answers read by libresolv, the answer rules.
@Suite("HTTPDNS doh answers (RFC 8484 DNS messages)")
struct HTTPDNSDoHTests {
    // MARK: Queries

    @Test("the query for www.example.com A is RFC 8484's example, byte for byte")
    func queryVector() throws {
        let message = try #require(DoHQuery.message(host: "www.example.com", type: .a))
        #expect(DoHQuery.base64URL(message) == "AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB")
        #expect(DoHQuery.getURL("https://dns.example/dns-query", message: message)
            == "https://dns.example/dns-query?dns=AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB")
    }

    @Test("an AAAA query differs only in its type; a name DNS cannot carry gives no query")
    func queryTypesAndBadNames() throws {
        let a = try #require(DoHQuery.message(host: "api.example.com", type: .a))
        let aaaa = try #require(DoHQuery.message(host: "api.example.com", type: .aaaa))
        #expect(a.dropLast(4) == aaaa.dropLast(4))
        #expect(Array(aaaa.suffix(4)) == [0, 28, 0, 1])
        #expect(DoHQuery.message(host: String(repeating: "a", count: 64) + ".example", type: .a) == nil)
        #expect(DoHQuery.message(host: "a..example", type: .a) == nil)
    }

    // MARK: Answers

    static let cases: [HTTPDNSCase] = [
        doh("two A records: both, the shorter TTL",
            DNSFixture.response(answers: [.a("api.example.com", "192.0.2.1", ttl: 300), .a("api.example.com", "192.0.2.2", ttl: 120)]),
            .ok(["192.0.2.1", "192.0.2.2"], ttl: 120)),
        doh("a CNAME chain inside the answer is followed; its TTLs count; Age is taken off",
            DNSFixture.response(answers: [
                .cname("api.example.com", "edge.example.net", ttl: 60),
                .cname("edge.example.net", "node.cdn.example", ttl: 600),
                .a("node.cdn.example", "198.51.100.7", ttl: 300),
            ]), age: 10,
            .ok(["198.51.100.7"], ttl: 50)),
        doh("names compare without case or trailing dot",
            DNSFixture.response(answers: [.a("API.Example.COM.", "192.0.2.1", ttl: 30)]),
            .ok(["192.0.2.1"], ttl: 30)),
        doh("an Age beyond the TTL leaves 0",
            DNSFixture.response(answers: [.a("api.example.com", "192.0.2.1", ttl: 30)]), age: 90,
            .ok(["192.0.2.1"], ttl: 0)),
        doh("records for another name are not this host's",
            DNSFixture.response(answers: [.a("evil.example", "203.0.113.66", ttl: 30)]),
            .problem(.noAnswer, "no answer (no A record)")),
        doh("NOERROR with no record is no answer",
            DNSFixture.response(answers: []),
            .problem(.noAnswer, "no answer (no A record)")),
        doh("NXDOMAIN is no such name",
            DNSFixture.response(rcode: 3, answers: []),
            .problem(.noSuchName, "no such name (NXDOMAIN)")),
        doh("SERVFAIL is the service's error",
            DNSFixture.response(rcode: 2, answers: []),
            .problem(.serviceError, "DNS error SERVFAIL (RCODE 2)")),
        doh("REFUSED is the service's error",
            DNSFixture.response(rcode: 5, answers: []),
            .problem(.serviceError, "DNS error REFUSED (RCODE 5)")),
        doh("a truncated answer is an error, whatever it holds",
            DNSFixture.response(truncated: true, answers: [.a("api.example.com", "192.0.2.1", ttl: 30)]),
            .problem(.serviceError, "truncated answer (TC set): the server could not send it whole")),
        doh("a non-2xx status is an error",
            Data("upstream down".utf8), status: 502,
            .problem(.serviceError, "HTTP 502: 'upstream down' (13 bytes)")),
        doh("a CNAME loop is refused",
            DNSFixture.response(answers: [
                .cname("api.example.com", "b.example", ttl: 60), .cname("b.example", "api.example.com", ttl: 60),
            ]),
            .problem(.garbage, "not a DNS message (CNAME loop or chain over 16 names at 'api.example.com'): ")),
        doh("a query is not an answer",
            DNSFixture.response(isResponse: false, answers: []),
            .problem(.garbage, "not a DNS message (a query, not a response): ")),
        doh("an answer count past the end of the message",
            DNSFixture.response(answers: [.a("api.example.com", "192.0.2.1", ttl: 30)], claimedAnswers: 3),
            .problem(.garbage, "not a DNS message (its header's counts do not fit its 64 bytes): ")),
        doh("a compression pointer that points at itself",
            DNSFixture.response(answers: [.cnameLoopPointer("api.example.com")]),
            .problem(.garbage, "not a DNS message (answer record 1 is malformed): ")),
        doh("an A record of 5 bytes",
            DNSFixture.response(answers: [.raw("api.example.com", type: 1, data: [192, 0, 2, 1, 9])]),
            .problem(.garbage, "not a DNS message (answer record 1 is malformed): ")),
        doh("an empty body", Data(),
            .problem(.garbage, "not a DNS message (its header's counts do not fit its 0 bytes): '' (0 bytes)")),
    ]

    @Test(arguments: cases)
    func answers(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.a).matches(testCase.expected), "\(testCase.run(.a))")
    }

    @Test("AAAA answers are read as IPv6; an A record in them is not an address of the family")
    func aaaa() {
        let body = DNSFixture.response(answers: [.aaaa("api.example.com", "2001:db8::1", ttl: 60)])
        let answer = HTTPDNSOutcome(Result { () throws(HTTPDNSProblem) in
            try DoHAnswerParser.parse(host: "api.example.com", type: .aaaa, status: 200, age: nil, body: body)
        })
        #expect(answer == .ok(["2001:db8::1"], ttl: 60))
    }

    static func doh(
        _ name: String, _ body: Data, status: Int = 200, age: Int? = nil, _ expected: HTTPDNSOutcome
    ) -> HTTPDNSCase {
        var testCase = HTTPDNSCase(name, status: status, bytes: body, expected)
        testCase.age = age
        return testCase
    }
}

extension HTTPDNSCase {
    func run(_ type: DNSMessage.RecordType) -> HTTPDNSOutcome {
        HTTPDNSOutcome(Result { () throws(HTTPDNSProblem) in
            try DoHAnswerParser.parse(host: host, type: type, status: status, age: age, body: body)
        })
    }
}

extension HTTPDNSOutcome {
    /// Equal, or for a garbage problem given as a prefix, starting with it (the quote of a
    /// binary body is long and says nothing the test is about).
    func matches(_ expected: HTTPDNSOutcome) -> Bool {
        if case .problem(.garbage, let detail) = self, case .problem(.garbage, let prefix) = expected, prefix.hasSuffix(": ") {
            return detail.hasPrefix(prefix)
        }
        return self == expected
    }
}

/// DNS responses for the tests, assembled byte by byte so that broken ones can be made too.
enum DNSFixture {
    enum Record {
        case a(String, String, ttl: UInt32)
        case aaaa(String, String, ttl: UInt32)
        case cname(String, String, ttl: UInt32)
        case raw(String, type: UInt16, data: [UInt8])
        /// A CNAME whose target is a compression pointer to itself.
        case cnameLoopPointer(String)
    }

    static func response(
        rcode: UInt8 = 0, truncated: Bool = false, isResponse: Bool = true, question: String = "api.example.com",
        answers: [Record], claimedAnswers: Int? = nil
    ) -> Data {
        var bytes: [UInt8] = [0, 0]
        bytes.append((isResponse ? 0x80 : 0) | (truncated ? 0x02 : 0) | 0x01)
        bytes.append(0x80 | rcode)
        bytes += u16(1) + u16(UInt16(claimedAnswers ?? answers.count)) + u16(0) + u16(0)
        bytes += name(question) + u16(1) + u16(1)
        for record in answers {
            switch record {
            case .a(let owner, let text, let ttl):
                bytes += name(owner) + u16(1) + u16(1) + u32(ttl) + u16(4) + address(text, count: 4)
            case .aaaa(let owner, let text, let ttl):
                bytes += name(owner) + u16(28) + u16(1) + u32(ttl) + u16(16) + address(text, count: 16)
            case .cname(let owner, let target, let ttl):
                let data = name(target)
                bytes += name(owner) + u16(5) + u16(1) + u32(ttl) + u16(UInt16(data.count)) + data
            case .raw(let owner, let type, let data):
                bytes += name(owner) + u16(type) + u16(1) + u32(60) + u16(UInt16(data.count)) + data
            case .cnameLoopPointer(let owner):
                bytes += name(owner) + u16(5) + u16(1) + u32(60) + u16(2)
                let here = UInt16(bytes.count)
                bytes += u16(0xC000 | here)
            }
        }
        return Data(bytes)
    }

    static func name(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for label in text.split(separator: ".") {
            bytes.append(UInt8(label.utf8.count))
            bytes += Array(label.utf8)
        }
        return bytes + [0]
    }

    static func address(_ text: String, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        _ = inet_pton(count == 4 ? AF_INET : AF_INET6, text, &buffer)
        return buffer
    }

    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) }
}
