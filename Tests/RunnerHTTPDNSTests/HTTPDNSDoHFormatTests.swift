import Foundation
import RunnerPlan
import RunnerVocabulary
import Testing

@testable import RunnerHTTPDNS

/// `format: doh` as a unit: the requests it builds (GET and POST) and the `Age` it reads.
@Suite("HTTPDNS doh queries (RFC 8484 GET and POST)")
struct HTTPDNSDoHFormatTests {
    static let url = "https://dns.example/dns-query"

    @Test("GET carries the message as ?dns= base64url without padding, and asks for a DNS message back")
    func get() throws {
        let queries = try HTTPDNSSpec.Format.doh(method: .get).wire.queries(template: Self.url, host: "www.example.com", ipVersion: .v4)
        #expect(queries == [HTTPDNSQuery(
            url: Self.url + "?dns=AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB",
            headers: [Header(name: "Accept", value: "application/dns-message")],
            label: Self.url + " (A)", family: .v4)])
    }

    @Test("POST sends the message as the body, typed application/dns-message; any asks A then AAAA")
    func post() throws {
        let queries = try HTTPDNSSpec.Format.doh(method: .post).wire.queries(template: Self.url, host: "www.example.com", ipVersion: .any)
        #expect(queries.count == 2)
        #expect(queries.map(\.url) == [Self.url, Self.url])
        #expect(queries.map(\.method) == ["POST", "POST"])
        #expect(queries.map(\.label) == [Self.url + " (A, POST)", Self.url + " (AAAA, POST)"])
        #expect(queries.map(\.family) == [.v4, .v6])
        #expect(queries[0].headers == [
            Header(name: "Accept", value: "application/dns-message"),
            Header(name: "Content-Type", value: "application/dns-message"),
        ])
        let message = try #require(queries[0].body)
        #expect(DoHQuery.base64URL(message) == "AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB")
        #expect(Array(try #require(queries[1].body).suffix(4)) == [0, 28, 0, 1])
    }

    @Test("asked as a client population, the query carries an OPT record with the EDNS Client Subnet option (RFC 7871)")
    func clientSubnet() throws {
        let v4 = try #require(try? IPSubnet.parse("120.196.0.0/24").get())
        let client = ClientPopulation(name: "gd-mobile", address: try #require(IPAddress("120.196.0.1")), subnet: v4, labels: [])
        let queries = try HTTPDNSSpec.Format.doh(method: .post).wire(askingAs: client)
            .queries(template: Self.url, host: "www.example.com", ipVersion: .v4)
        let message = [UInt8](try #require(queries.first?.body))
        // The header as without a client, but ARCOUNT 1: the OPT record follows the question.
        let question = Array(Data(base64Encoded: "AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB") ?? Data())
        #expect(Array(message.prefix(10)) == Array(question.prefix(10)))
        #expect(Array(message[10..<12]) == [0, 1])
        #expect(Array(message[12..<question.count]) == Array(question[12...]))
        // Root name, type OPT (41), payload 1232, TTL 0, RDLENGTH 11; option 8 of 7 bytes:
        // family 1, source /24, scope 0, the address's three whole bytes.
        #expect(Array(message[question.count...]) == [
            0, 0, 41, 0x04, 0xD0, 0, 0, 0, 0, 0, 11,
            0, 8, 0, 7, 0, 1, 24, 0, 120, 196, 0,
        ])
        let v6 = try #require(try? IPSubnet.parse("2001:db8:1200::/40").get())
        #expect(LDNSQuery.clientSubnetOption(v6) == [0, 2, 40, 0, 0x20, 0x01, 0x0d, 0xb8, 0x12])
        let zero = try #require(try? IPSubnet.parse("0.0.0.0/0").get())
        #expect(LDNSQuery.clientSubnetOption(zero) == [0, 1, 0, 0], "a /0 carries no address byte")
    }

    @Test("a host DNS cannot carry is refused before anything is sent")
    func unaskable() {
        #expect(throws: HTTPDNSProblem.self) {
            try HTTPDNSSpec.Format.doh(method: .get).wire.queries(template: Self.url, host: "a..example", ipVersion: .v4)
        }
    }

    @Test("the reply is read for the query's record type, its Age taken off the TTL")
    func reply() throws {
        let wire = HTTPDNSSpec.Format.doh(method: .get).wire
        let queries = try wire.queries(template: Self.url, host: "api.example.com", ipVersion: .any)
        let body = DNSFixture.response(answers: [
            .a("api.example.com", "192.0.2.1", ttl: 100), .aaaa("api.example.com", "2001:db8::1", ttl: 100),
        ])
        let reply = HTTPDNSReply(status: 200, headers: [Header(name: "age", value: " 30 ")], body: body)
        #expect(try wire.answer(to: queries[0], host: "api.example.com", reply: reply)
            == HTTPDNSAnswer(addresses: [IPAddress("192.0.2.1")].compactMap { $0 }, ttl: 70))
        #expect(try wire.answer(to: queries[1], host: "api.example.com", reply: reply)
            == HTTPDNSAnswer(addresses: [IPAddress("2001:db8::1")].compactMap { $0 }, ttl: 70))
    }
}
