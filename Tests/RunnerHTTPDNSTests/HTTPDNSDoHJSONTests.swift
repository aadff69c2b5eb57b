import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// DoH JSON answers (`application/dns-json`), as Google and Cloudflare send them.
@Suite("HTTPDNS doh-json answers")
struct HTTPDNSDoHJSONTests {
    static let answerCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "two A records, shortest TTL",
            #"{"Status":0,"TC":false,"RD":true,"RA":true,"AD":false,"CD":false,"Question":[{"name":"api.example.com.","type":1}],"Answer":[{"name":"api.example.com.","type":1,"TTL":300,"data":"1.2.3.4"},{"name":"api.example.com.","type":1,"TTL":200,"data":"5.6.7.8"}]}"#,
            .ok(["1.2.3.4", "5.6.7.8"], ttl: 200)),
        HTTPDNSCase(
            "CNAME chain skipped, its TTL not counted",
            #"{"Status":0,"Question":[{"name":"api.example.com.","type":1}],"Answer":[{"name":"api.example.com.","type":5,"TTL":30,"data":"api.cdn.example.net."},{"name":"api.cdn.example.net.","type":1,"TTL":60,"data":"1.2.3.4"}]}"#,
            .ok(["1.2.3.4"], ttl: 60)),
        HTTPDNSCase(
            "AAAA records",
            #"{"Status":0,"Question":[{"name":"api.example.com","type":28}],"Answer":[{"name":"api.example.com","type":28,"TTL":120,"data":"2606:4700:0:0::6810:84e5"}]}"#,
            .ok(["2606:4700::6810:84e5"], ttl: 120)),
        HTTPDNSCase(
            "AAAA before A in one answer: IPv4 first",
            #"{"Status":0,"Answer":[{"name":"api.example.com.","type":28,"TTL":120,"data":"240e::1"},{"name":"api.example.com.","type":1,"TTL":120,"data":"1.2.3.4"}]}"#,
            .ok(["1.2.3.4", "240e::1"], ttl: 120)),
        HTTPDNSCase(
            "other record types skipped",
            #"{"Status":0,"Answer":[{"name":"api.example.com.","type":46,"TTL":5,"data":"A 13 3 300 …"},{"name":"api.example.com.","type":1,"TTL":300,"data":"1.2.3.4"}]}"#,
            .ok(["1.2.3.4"], ttl: 300)),
        HTTPDNSCase(
            "no Question", #"{"Status":0,"Answer":[{"name":"api.example.com.","type":1,"TTL":300,"data":"1.2.3.4"}]}"#,
            .ok(["1.2.3.4"], ttl: 300)),

        HTTPDNSCase(
            "no Answer",
            #"{"Status":0,"Question":[{"name":"api.example.com.","type":28}],"Authority":[{"name":"example.com.","type":6,"TTL":1800,"data":"ns.example.com. …"}]}"#,
            .noAnswer("no answer (no A or AAAA record)")),
        HTTPDNSCase("empty Answer", #"{"Status":0,"Answer":[]}"#, .noAnswer("no answer (no A or AAAA record)")),
        HTTPDNSCase(
            "only a CNAME", #"{"Status":0,"Answer":[{"name":"api.example.com.","type":5,"TTL":30,"data":"x.example.net."}]}"#,
            .noAnswer("no answer (no A or AAAA record)")),

        HTTPDNSCase(
            "NXDOMAIN", #"{"Status":3,"Question":[{"name":"api.example.com.","type":1}],"Authority":[]}"#,
            .noSuchName("no such name (NXDOMAIN)")),
        HTTPDNSCase("SERVFAIL", #"{"Status":2,"Comment":"upstream timed out"}"#, .serviceError("DNS error SERVFAIL (Status 2)")),
        HTTPDNSCase("REFUSED", #"{"Status":5}"#, .serviceError("DNS error REFUSED (Status 5)")),
        HTTPDNSCase("unnamed RCODE", #"{"Status":23}"#, .serviceError("DNS error RCODE 23 (Status 23)")),
        HTTPDNSCase(
            "HTTP 400", status: 400, #"{"error":"Invalid name"}"#,
            .serviceError(#"HTTP 400: '{"error":"Invalid name"}' (24 bytes)"#)),
        HTTPDNSCase(
            "HTTP 500", status: 500, "Internal Server Error",
            .serviceError("HTTP 500: 'Internal Server Error' (21 bytes)")),
    ]

    static let malformedCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "HTML page with 200", httpdnsHTMLPage,
            .garbage("not a DoH JSON answer: '<html><body>Bad gateway: the upstream HTTPDNS server did not…' (812 bytes)")),
        HTTPDNSCase(
            "truncated JSON", #"{"Status":0,"Answer":[{"name":"api.exa"#,
            .garbage(#"not a DoH JSON answer: '{"Status":0,"Answer":[{"name":"api.exa' (38 bytes)"#)),
        HTTPDNSCase("empty body", "", .garbage("not a DoH JSON answer: '' (0 bytes)")),
        HTTPDNSCase(
            "no Status", #"{"Answer":[]}"#, .garbage(#"not a DoH JSON answer (no 'Status'): '{"Answer":[]}' (13 bytes)"#)),
        HTTPDNSCase(
            "Status a string", #"{"Status":"0"}"#,
            .garbage(#"not a DoH JSON answer ('Status' is not a DNS RCODE): '{"Status":"0"}' (14 bytes)"#)),
        HTTPDNSCase(
            "Status negative", #"{"Status":-1}"#,
            .garbage(#"not a DoH JSON answer ('Status' is not a DNS RCODE): '{"Status":-1}' (13 bytes)"#)),
        HTTPDNSCase(
            "IPv6 data in an A record", #"{"Status":0,"Answer":[{"type":1,"TTL":60,"data":"::1"}]}"#,
            .garbage(#"not a DoH JSON answer (IPv6 address '::1' in record 1 (type 1)): '{"Status":0,"Answer":[{"type":1,"TTL":60,"data":"::1"}]}' (56 bytes)"#)),
        HTTPDNSCase(
            "IPv4 data in an AAAA record",
            #"{"Status":0,"Answer":[{"type":5,"TTL":60,"data":"x."},{"type":28,"TTL":60,"data":"1.2.3.4"}]}"#,
            .garbage(#"not a DoH JSON answer (IPv4 address '1.2.3.4' in record 2 (type 28)): '{"Status":0,"Answer":[{"type":5,"TTL":60,"data":"x."},{"type…' (93 bytes)"#)),
        HTTPDNSCase(
            "bad IP literal", #"{"Status":0,"Answer":[{"type":1,"TTL":60,"data":"1.2.3"}]}"#,
            .garbage(#"not a DoH JSON answer (bad IP address '1.2.3' in record 1 (type 1)): '{"Status":0,"Answer":[{"type":1,"TTL":60,"data":"1.2.3"}]}' (58 bytes)"#)),
        HTTPDNSCase(
            "data a number", #"{"Status":0,"Answer":[{"type":1,"TTL":60,"data":16909060}]}"#,
            .garbage(#"not a DoH JSON answer (record 1 has no string 'data'): '{"Status":0,"Answer":[{"type":1,"TTL":60,"data":16909060}]}' (59 bytes)"#)),
        HTTPDNSCase(
            "negative TTL", #"{"Status":0,"Answer":[{"type":1,"TTL":-1,"data":"1.2.3.4"}]}"#,
            .garbage(#"not a DoH JSON answer (record 1: 'TTL' -1 out of range): '{"Status":0,"Answer":[{"type":1,"TTL":-1,"data":"1.2.3.4"}]}' (60 bytes)"#)),
        HTTPDNSCase(
            "no TTL", #"{"Status":0,"Answer":[{"type":1,"data":"1.2.3.4"}]}"#,
            .garbage(#"not a DoH JSON answer (record 1 has no 'TTL'): '{"Status":0,"Answer":[{"type":1,"data":"1.2.3.4"}]}' (51 bytes)"#)),
        HTTPDNSCase(
            "type a string", #"{"Status":0,"Answer":[{"type":"A","TTL":60,"data":"1.2.3.4"}]}"#,
            .garbage(#"not a DoH JSON answer (record 1 has no integer 'type'): '{"Status":0,"Answer":[{"type":"A","TTL":60,"data":"1.2.3.4"}…' (62 bytes)"#)),
        HTTPDNSCase(
            "Answer an object", #"{"Status":0,"Answer":{}}"#,
            .garbage(#"not a DoH JSON answer ('Answer' is not a list): '{"Status":0,"Answer":{}}' (24 bytes)"#)),
        HTTPDNSCase(
            "record a string", #"{"Status":0,"Answer":["1.2.3.4"]}"#,
            .garbage(#"not a DoH JSON answer (record 1 is not an object): '{"Status":0,"Answer":["1.2.3.4"]}' (33 bytes)"#)),
        HTTPDNSCase(
            "question for another name",
            #"{"Status":0,"Question":[{"name":"evil.example.net.","type":1}],"Answer":[]}"#,
            .garbage(#"not a DoH JSON answer (question for 'evil.example.net.', not 'api.example.com'): '{"Status":0,"Question":[{"name":"evil.example.net.","type":1…' (75 bytes)"#)),
        HTTPDNSCase(
            "a JSON list", #"[{"Status":0}]"#, .garbage(#"not a DoH JSON answer: '[{"Status":0}]' (14 bytes)"#)),
    ]

    @Test("well-formed answers, no answers and service errors", arguments: answerCases)
    func parsesAnswers(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.dohJSON) == testCase.expected)
    }

    @Test("malformed bodies are garbage, quoted", arguments: malformedCases)
    func rejectsMalformed(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.dohJSON) == testCase.expected)
    }
}
