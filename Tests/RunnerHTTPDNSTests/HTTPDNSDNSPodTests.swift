import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// DNSPod / Tencent D+ text answers, as the service sends them.
@Suite("HTTPDNS dnspod answers")
struct HTTPDNSDNSPodTests {
    static let answerCases: [HTTPDNSCase] = [
        HTTPDNSCase("single address", "1.2.3.4", .ok(["1.2.3.4"])),
        HTTPDNSCase(
            "several with ttl (seed 003: http://119.29.29.29/d?dn=www.163.com&ttl=1)",
            "183.47.248.109;125.90.206.144;14.215.100.95;183.6.245.191,17",
            .ok(["183.47.248.109", "125.90.206.144", "14.215.100.95", "183.6.245.191"], ttl: 17)),
        HTTPDNSCase("several without ttl", "1.1.1.1;2.2.2.2", .ok(["1.1.1.1", "2.2.2.2"])),
        HTTPDNSCase("trailing newline", "1.1.1.1,60\n", .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase("ttl 0", "1.1.1.1,0", .ok(["1.1.1.1"], ttl: 0)),
        HTTPDNSCase("ttl of one year", "1.1.1.1,31536000", .ok(["1.1.1.1"], ttl: 31_536_000)),
        HTTPDNSCase(
            "client ip suffix", "1.1.1.1;2.2.2.2,60|123.45.67.89",
            .ok(["1.1.1.1", "2.2.2.2"], ttl: 60, client: "123.45.67.89")),
        HTTPDNSCase("client ip without ttl", "1.1.1.1|10.0.0.1", .ok(["1.1.1.1"], client: "10.0.0.1")),
        HTTPDNSCase(
            "dual stack, both sides", "1.1.1.1;2.2.2.2,120-240e::1;240e::2,120",
            .ok(["1.1.1.1", "2.2.2.2", "240e::1", "240e::2"], ttl: 120)),
        HTTPDNSCase("dual stack, shortest ttl wins", "1.1.1.1,300-240e::1,60", .ok(["1.1.1.1", "240e::1"], ttl: 60)),
        HTTPDNSCase("dual stack, no IPv4", "0-240e::1;240e::2,120", .ok(["240e::1", "240e::2"], ttl: 120)),
        HTTPDNSCase("dual stack, no IPv6", "1.1.1.1,120-0", .ok(["1.1.1.1"], ttl: 120)),
        HTTPDNSCase(
            "dual stack with client ip", "1.1.1.1,120-240e::1,90|240e:abc::9",
            .ok(["1.1.1.1", "240e::1"], ttl: 90, client: "240e:abc::9")),
        HTTPDNSCase(
            "IPv6 list (type=aaaa)", "240e:ff:e020:9ae:0:0:0:1;2402:4e00::1,600",
            .ok(["240e:ff:e020:9ae::1", "2402:4e00::1"], ttl: 600)),
        HTTPDNSCase("IPv6 in upper case is made canonical", "240E::A,60", .ok(["240e::a"], ttl: 60)),
        HTTPDNSCase(
            "batch, our host second", "other.example.com.:9.9.9.9,60\napi.example.com.:1.2.3.4;5.6.7.8,120",
            .ok(["1.2.3.4", "5.6.7.8"], ttl: 120)),
        HTTPDNSCase("batch line without the trailing dot", "api.example.com:1.2.3.4,120", .ok(["1.2.3.4"], ttl: 120)),
        HTTPDNSCase("batch of one line (query=1)", "api.example.com.:1.2.3.4,120", .ok(["1.2.3.4"], ttl: 120)),
        HTTPDNSCase(
            "batch with CRLF line ends", "a.example.com.:9.9.9.9,60\r\napi.example.com.:1.2.3.4,60\r\n",
            .ok(["1.2.3.4"], ttl: 60)),
        HTTPDNSCase(
            "batch host compared without case", host: "API.Example.COM", "api.example.com.:1.2.3.4", .ok(["1.2.3.4"])),
        HTTPDNSCase(
            "batch with IPv6 and client ip", "api.example.com.:240e::1;240e::2,60|1.2.3.4",
            .ok(["240e::1", "240e::2"], ttl: 60, client: "1.2.3.4")),

        // The vendors' samples: no `ttl=1` means no TTL, `v4s-0` no AAAA.
        HTTPDNSCase("dual stack without ttl", "1.1.1.1;2.2.2.2-240e::1", .ok(["1.1.1.1", "2.2.2.2", "240e::1"])),
        HTTPDNSCase("dual stack without ttl, no AAAA (v4s-0)", "1.1.1.1;2.2.2.2-0", .ok(["1.1.1.1", "2.2.2.2"])),
        // The client suffix ends the last line and belongs to the whole batch.
        HTTPDNSCase(
            "batch, client ip after the last line, our host first",
            "api.example.com.:1.2.3.4,60\nother.example.com.:9.9.9.9,60|5.6.7.8",
            .ok(["1.2.3.4"], ttl: 60, client: "5.6.7.8")),
        HTTPDNSCase(
            "batch, client ip after the last line, our host last",
            "other.example.com.:9.9.9.9,60\napi.example.com.:1.2.3.4,60|5.6.7.8",
            .ok(["1.2.3.4"], ttl: 60, client: "5.6.7.8")),
        HTTPDNSCase(
            "batch, an IPv6 client after the last line", "other.example.com.:0\napi.example.com.:1.2.3.4|240e::9",
            .ok(["1.2.3.4"], client: "240e::9")),

        HTTPDNSCase("empty body", "", .noAnswer("no answer (empty body)")),
        HTTPDNSCase("only a newline", "\n", .noAnswer("no answer (empty body)")),
        HTTPDNSCase("0", "0", .noAnswer("no answer ('0')")),
        HTTPDNSCase("dual stack, both sides 0", "0-0", .noAnswer("no answer ('0-0')")),
        HTTPDNSCase("0 with client ip", "0|1.2.3.4", .noAnswer("no answer ('0|1.2.3.4')")),
        HTTPDNSCase(
            "batch, our line is 0", "api.example.com.:0\nother.example.com.:1.1.1.1",
            .noAnswer("no answer ('api.example.com.:0')")),
        // The five "no record" forms of the vendors' samples, all no answer.
        HTTPDNSCase("no record: host and client ip", "api.example.com|1.2.3.4", .noAnswer("no answer ('api.example.com|1.2.3.4')")),
        HTTPDNSCase(
            "no record: host with a trailing dot and an IPv6 client", "api.example.com.|240e::9",
            .noAnswer("no answer ('api.example.com.|240e::9')")),
        HTTPDNSCase(
            "no record: another host and client ip", "other.example.com|1.2.3.4",
            .noAnswer("no answer (batch of 1 line has none for 'api.example.com')")),
        HTTPDNSCase(
            "batch, our host last as host and client ip", "other.example.com.:9.9.9.9,60\napi.example.com|1.2.3.4",
            .noAnswer("no answer ('api.example.com|1.2.3.4')")),
        HTTPDNSCase(
            "batch, another host last as host and client ip", "api.example.com.:1.2.3.4,60\nother.example.com|5.6.7.8",
            .ok(["1.2.3.4"], ttl: 60, client: "5.6.7.8")),
        HTTPDNSCase("batch line 0 with client ip", "api.example.com.:0|1.2.3.4", .noAnswer("no answer ('api.example.com.:0|1.2.3.4')")),
        HTTPDNSCase(
            "batch without our host", "a.example.com.:1.1.1.1,60\nb.example.com.:2.2.2.2,60",
            .noAnswer("no answer (batch of 2 lines has none for 'api.example.com')")),

        HTTPDNSCase(
            "HTTP 500", status: 500, "Internal Server Error",
            .serviceError("HTTP 500: 'Internal Server Error' (21 bytes)")),
        HTTPDNSCase("HTTP 502 with nothing", status: 502, "", .serviceError("HTTP 502 with an empty body")),
        HTTPDNSCase(
            "HTTP 404 page", status: 404, httpdnsHTMLPage,
            .serviceError("HTTP 404: '<html><body>Bad gateway: the upstream HTTPDNS server did not…' (812 bytes)")),
    ]

    static let malformedCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "HTML page with 200", httpdnsHTMLPage,
            .garbage("not a DNSPod answer: '<html><body>Bad gateway: the upstream HTTPDNS server did not…' (812 bytes)")),
        HTTPDNSCase("empty element", "1.2.3.4;;", .garbage("not a DNSPod answer: '1.2.3.4;;' (9 bytes)")),
        HTTPDNSCase("trailing semicolon", "1.2.3.4;,60", .garbage("not a DNSPod answer: '1.2.3.4;,60' (11 bytes)")),
        HTTPDNSCase("trailing words", "1.2.3.4,60 ok", .garbage("not a DNSPod answer: '1.2.3.4,60 ok' (13 bytes)")),
        HTTPDNSCase("two ttls", "1.2.3.4,60,70", .garbage("not a DNSPod answer: '1.2.3.4,60,70' (13 bytes)")),
        HTTPDNSCase("ttl not a number", "1.2.3.4,abc", .garbage("not a DNSPod answer: '1.2.3.4,abc' (11 bytes)")),
        HTTPDNSCase("ttl alone", ",60", .garbage("not a DNSPod answer: ',60' (3 bytes)")),
        HTTPDNSCase("0 with a ttl", "0,60", .garbage("not a DNSPod answer: '0,60' (4 bytes)")),
        HTTPDNSCase(
            "negative ttl", "1.2.3.4,-5", .garbage("not a DNSPod answer (ttl -5 out of range): '1.2.3.4,-5' (10 bytes)")),
        HTTPDNSCase(
            "ttl over a year", "1.2.3.4,31536001",
            .garbage("not a DNSPod answer (ttl 31536001 out of range): '1.2.3.4,31536001' (16 bytes)")),
        HTTPDNSCase(
            "ttl beyond Int", "1.2.3.4,99999999999999999999",
            .garbage("not a DNSPod answer (ttl 99999999999999999999 out of range): '1.2.3.4,99999999999999999999' (28 bytes)")),
        HTTPDNSCase("bad IPv4 literal", "1.2.3.256,60", .garbage("not a DNSPod answer: '1.2.3.256,60' (12 bytes)")),
        HTTPDNSCase("short IPv4 literal", "1.2.3", .garbage("not a DNSPod answer: '1.2.3' (5 bytes)")),
        HTTPDNSCase("bracketed IPv6", "[240e::1],60", .garbage("not a DNSPod answer: '[240e::1],60' (12 bytes)")),
        HTTPDNSCase(
            "IPv6 in an IPv4 list", "1.2.3.4;240e::1,60",
            .garbage("not a DNSPod answer (IPv6 address '240e::1' in a list of IPv4 addresses): '1.2.3.4;240e::1,60' (18 bytes)")),
        HTTPDNSCase(
            "IPv4 in an IPv6 list", "240e::1;1.2.3.4",
            .garbage("not a DNSPod answer (IPv4 address '1.2.3.4' in a list of IPv6 addresses): '240e::1;1.2.3.4' (15 bytes)")),
        HTTPDNSCase(
            "dual stack, IPv6 on the IPv4 side", "240e::1,60-240e::2,60",
            .garbage("not a DNSPod answer (IPv6 address '240e::1' in the IPv4 list): '240e::1,60-240e::2,60' (21 bytes)")),
        HTTPDNSCase(
            "dual stack, IPv4 on the IPv6 side", "1.1.1.1,60-2.2.2.2,60",
            .garbage("not a DNSPod answer (IPv4 address '2.2.2.2' in the IPv6 list): '1.1.1.1,60-2.2.2.2,60' (21 bytes)")),
        HTTPDNSCase(
            "three dual-stack parts", "1.1.1.1-240e::1-240e::2",
            .garbage("not a DNSPod answer: '1.1.1.1-240e::1-240e::2' (23 bytes)")),
        HTTPDNSCase("client ip alone", "|1.2.3.4", .garbage("not a DNSPod answer: '|1.2.3.4' (8 bytes)")),
        HTTPDNSCase(
            "host and a client that is not an IP", "api.example.com|me",
            .garbage("not a DNSPod answer: 'api.example.com|me' (18 bytes)")),
        HTTPDNSCase("a host alone, without client ip", "api.example.com", .garbage("not a DNSPod answer: 'api.example.com' (15 bytes)")),
        HTTPDNSCase("a broken address with client ip", "1.2.3|5.6.7.8", .garbage("not a DNSPod answer: '1.2.3|5.6.7.8' (13 bytes)")),
        HTTPDNSCase(
            "batch, client ip on a line before the last", "api.example.com.:1.2.3.4|5.6.7.8\nother.example.com.:9.9.9.9",
            .garbage("not a DNSPod answer ('|clientip' on line 1 of 2, not the last): 'api.example.com.:1.2.3.4|5.6.7.8\\nother.example.com.:9.9.9.9' (59 bytes)")),
        HTTPDNSCase(
            "batch, a host alone before the last line", "api.example.com\nother.example.com.:9.9.9.9|5.6.7.8",
            .garbage("not a DNSPod answer: 'api.example.com\\nother.example.com.:9.9.9.9|5.6.7.8' (50 bytes)")),
        HTTPDNSCase("client ip not an IP", "1.1.1.1|me", .garbage("not a DNSPod answer: '1.1.1.1|me' (10 bytes)")),
        HTTPDNSCase(
            "two client ips", "1.1.1.1|1.2.3.4|5.6.7.8",
            .garbage("not a DNSPod answer: '1.1.1.1|1.2.3.4|5.6.7.8' (23 bytes)")),
        HTTPDNSCase(
            "batch with our host twice", "api.example.com.:1.1.1.1\napi.example.com.:2.2.2.2",
            .garbage("not a DNSPod answer (two lines for 'api.example.com'): 'api.example.com.:1.1.1.1\\napi.example.com.:2.2.2.2' (49 bytes)")),
        HTTPDNSCase(
            "batch with a broken line for another host", "api.example.com.:1.1.1.1\nother.example.com.:junk",
            .garbage("not a DNSPod answer: 'api.example.com.:1.1.1.1\\nother.example.com.:junk' (48 bytes)")),
        HTTPDNSCase(
            "batch with a blank line", "a.example.com.:1.1.1.1\n\napi.example.com.:1.2.3.4",
            .garbage("not a DNSPod answer: 'a.example.com.:1.1.1.1\\n\\napi.example.com.:1.2.3.4' (48 bytes)")),
        HTTPDNSCase(
            "two plain lines", "1.1.1.1\n2.2.2.2", .garbage("not a DNSPod answer: '1.1.1.1\\n2.2.2.2' (15 bytes)")),
        HTTPDNSCase("non-ASCII", "1.2.3.4é", .garbage("not a DNSPod answer: '1.2.3.4\\xc3\\xa9' (9 bytes)")),
        HTTPDNSCase("NUL after an address", "1.2.3.4\u{0}", .garbage("not a DNSPod answer: '1.2.3.4\\x00' (8 bytes)")),
        HTTPDNSCase("JSON sent instead", #"{"ips":["1.1.1.1"]}"#, .garbage(#"not a DNSPod answer: '{"ips":["1.1.1.1"]}' (19 bytes)"#)),
    ]

    @Test("well-formed answers, no answers and service errors", arguments: answerCases)
    func parsesAnswers(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.dnspod) == testCase.expected)
    }

    @Test("malformed bodies are garbage, quoted", arguments: malformedCases)
    func rejectsMalformed(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.dnspod) == testCase.expected)
    }

    @Test("addresses keep their family")
    func families() throws {
        let answer = try parseReply(.dnspod, host: "api.example.com", status: 200, body: Data("1.1.1.1,60-::ffff:1.2.3.4,60".utf8)
        ).get()
        #expect(answer.addresses.map(\.family) == [.v4, .v6])
        #expect(answer.addresses.map(\.text) == ["1.1.1.1", "::ffff:1.2.3.4"])
    }

    @Test("a problem's description is its detail")
    func problemDescription() {
        let result = parseReply(.dnspod, host: "api.example.com", status: 200, body: Data("0".utf8))
        guard case .failure(let problem) = result else {
            Issue.record("expected a problem, got \(result)")
            return
        }
        #expect("\(problem)" == "no answer ('0')")
    }
}
