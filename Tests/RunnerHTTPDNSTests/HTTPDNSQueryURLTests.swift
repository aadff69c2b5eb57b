import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// Query URLs built from plan templates.
@Suite("HTTPDNS query URLs")
struct HTTPDNSQueryURLTests {
    struct URLCase: Sendable, CustomTestStringConvertible {
        var name: String
        var template: String
        var host = "api.example.com"
        var format: HTTPDNSSpec.Format
        var ipVersion: IPVersionPreference
        var expected: [String]

        var testDescription: String { name }
    }

    static let dnspod = "http://119.29.29.29/d?dn={host}&ttl=1"
    static let alibaba = "http://203.107.1.1/100000/d?host={host}"
    static let doh = "https://dns.google/resolve?name={host}"

    static let cases: [URLCase] = [
        URLCase(
            name: "dnspod v4 adds nothing", template: dnspod, format: .dnspod, ipVersion: .v4,
            expected: ["http://119.29.29.29/d?dn=api.example.com&ttl=1"]),
        URLCase(
            name: "dnspod v6", template: dnspod, format: .dnspod, ipVersion: .v6,
            expected: ["http://119.29.29.29/d?dn=api.example.com&ttl=1&type=aaaa"]),
        URLCase(
            name: "dnspod any", template: dnspod, format: .dnspod, ipVersion: .any,
            expected: ["http://119.29.29.29/d?dn=api.example.com&ttl=1&type=addrs"]),
        URLCase(
            name: "dnspod template already sets type", template: "http://119.29.29.29/d?type=aaaa&dn={host}",
            format: .dnspod, ipVersion: .any, expected: ["http://119.29.29.29/d?type=aaaa&dn=api.example.com"]),
        URLCase(
            name: "alibaba v4 adds nothing", template: alibaba, format: .alibaba, ipVersion: .v4,
            expected: ["http://203.107.1.1/100000/d?host=api.example.com"]),
        URLCase(
            name: "alibaba v6", template: alibaba, format: .alibaba, ipVersion: .v6,
            expected: ["http://203.107.1.1/100000/d?host=api.example.com&query=6"]),
        URLCase(
            name: "alibaba any", template: alibaba, format: .alibaba, ipVersion: .any,
            expected: ["http://203.107.1.1/100000/d?host=api.example.com&query=4,6"]),
        URLCase(
            name: "alibaba template already sets query", template: alibaba + "&query=4", format: .alibaba,
            ipVersion: .v6, expected: ["http://203.107.1.1/100000/d?host=api.example.com&query=4"]),
        URLCase(
            name: "doh v4", template: doh, format: .dohJSON, ipVersion: .v4,
            expected: ["https://dns.google/resolve?name=api.example.com&type=A"]),
        URLCase(
            name: "doh v6", template: doh, format: .dohJSON, ipVersion: .v6,
            expected: ["https://dns.google/resolve?name=api.example.com&type=AAAA"]),
        URLCase(
            name: "doh any asks twice, A then AAAA", template: doh, format: .dohJSON, ipVersion: .any,
            expected: [
                "https://dns.google/resolve?name=api.example.com&type=A",
                "https://dns.google/resolve?name=api.example.com&type=AAAA",
            ]),
        URLCase(
            name: "doh any with type fixed asks once", template: doh + "&type=AAAA", format: .dohJSON, ipVersion: .any,
            expected: ["https://dns.google/resolve?name=api.example.com&type=AAAA"]),
        URLCase(
            name: "a longer name is another parameter", template: doh + "&types=1", format: .dohJSON, ipVersion: .v4,
            expected: ["https://dns.google/resolve?name=api.example.com&types=1&type=A"]),
        URLCase(
            name: "no query yet: ?", template: "http://127.0.0.2:8053/resolve/{host}", format: .dohJSON, ipVersion: .v6,
            expected: ["http://127.0.0.2:8053/resolve/api.example.com?type=AAAA"]),
        URLCase(
            name: "template ending in ?", template: "http://127.0.0.2:8053/resolve/{host}?", format: .dohJSON,
            ipVersion: .v4, expected: ["http://127.0.0.2:8053/resolve/api.example.com?type=A"]),
        URLCase(
            name: "template ending in &", template: "http://h/d?dn={host}&", format: .dnspod, ipVersion: .v6,
            expected: ["http://h/d?dn=api.example.com&type=aaaa"]),
        URLCase(
            name: "fragment stays last", template: "http://h/d?dn={host}#x", format: .dnspod, ipVersion: .any,
            expected: ["http://h/d?dn=api.example.com&type=addrs#x"]),
        URLCase(
            name: "host twice", template: "http://h/{host}/d?dn={host}", format: .dnspod, ipVersion: .v4,
            expected: ["http://h/api.example.com/d?dn=api.example.com"]),
        URLCase(
            name: "unreserved characters kept, case kept", template: dnspod, host: "A-b_c~d.Example.COM",
            format: .dnspod, ipVersion: .v4, expected: ["http://119.29.29.29/d?dn=A-b_c~d.Example.COM&ttl=1"]),
        URLCase(
            name: "reserved characters encoded", template: dnspod, host: "a b&c=d/e?f#g+h%i:j",
            format: .dnspod, ipVersion: .v4,
            expected: ["http://119.29.29.29/d?dn=a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh%25i%3Aj&ttl=1"]),
        URLCase(
            name: "non-ASCII encoded as UTF-8", template: dnspod, host: "bücher.example", format: .dnspod,
            ipVersion: .v4, expected: ["http://119.29.29.29/d?dn=b%C3%BCcher.example&ttl=1"]),
    ]

    @Test("templates become query URLs", arguments: cases)
    func builds(_ testCase: URLCase) throws {
        let queries = try testCase.format.wire.queries(
            template: testCase.template, host: testCase.host, ipVersion: testCase.ipVersion)
        #expect(queries.map(\.url) == testCase.expected)
        #expect(queries.allSatisfy { $0.method == "GET" && $0.body == nil && $0.label == $0.url })
    }
}
