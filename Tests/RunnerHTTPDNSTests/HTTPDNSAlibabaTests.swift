import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// Alibaba Cloud EMAS JSON answers, as the service sends them.
@Suite("HTTPDNS alibaba answers")
struct HTTPDNSAlibabaTests {
    static let answerCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "full answer",
            #"{"host":"api.example.com","ips":["1.1.1.1","2.2.2.2"],"ipsv6":["240e::1"],"ttl":60,"origin_ttl":600,"client_ip":"101.1.2.3"}"#,
            .ok(["1.1.1.1", "2.2.2.2", "240e::1"], ttl: 60, client: "101.1.2.3")),
        HTTPDNSCase("only ips", #"{"ips":["1.1.1.1"]}"#, .ok(["1.1.1.1"])),
        HTTPDNSCase(
            "IPv6 only (query=6)", #"{"host":"api.example.com","ips":[],"ipsv6":["2408:4000:0:0::1"],"ttl":30}"#,
            .ok(["2408:4000::1"], ttl: 30)),
        HTTPDNSCase(
            "host in another case, with a trailing dot", #"{"host":"API.EXAMPLE.COM.","ips":["1.1.1.1"],"ttl":60}"#,
            .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase("ipsv6 null", #"{"ips":["1.1.1.1"],"ipsv6":null,"ttl":60}"#, .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "IPv6 only, without 'ips' (query=6)", #"{"host":"api.example.com","ipsv6":["::1"],"ttl":60}"#,
            .ok(["::1"], ttl: 60)),
        HTTPDNSCase(
            "unknown members ignored", #"{"ips":["1.1.1.1"],"ttl":60,"extra":"","type":1,"code":"success"}"#,
            .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "pretty-printed", "{\n  \"host\": \"api.example.com\",\n  \"ips\": [\"1.1.1.1\"],\n  \"ttl\": 60\n}\n",
            .ok(["1.1.1.1"], ttl: 60)),

        HTTPDNSCase(
            "empty ips", #"{"host":"api.example.com","ips":[],"ttl":60,"origin_ttl":60}"#,
            .noAnswer("no answer (empty 'ips' and 'ipsv6')")),
        HTTPDNSCase(
            "empty ips and ipsv6", #"{"host":"api.example.com","ips":[],"ipsv6":[],"ttl":60}"#,
            .noAnswer("no answer (empty 'ips' and 'ipsv6')")),

        // The vendors' samples: no `ips` key at all is an empty answer (the Android SDK's test).
        HTTPDNSCase(
            "no ips key (the Android SDK's sample)", #"{"host":"api.example.com","ttl":60}"#,
            .noAnswer("no answer (no 'ips' or 'ipsv6')")),
        HTTPDNSCase("no ips key, ipsv6 null", #"{"host":"api.example.com","ipsv6":null}"#, .noAnswer("no answer (no 'ips' or 'ipsv6')")),
        // Fields the runner does not rely on never fail an answer, whatever they hold.
        HTTPDNSCase(
            "extra as a string", #"{"ips":["1.1.1.1"],"ttl":60,"extra":"k=v"}"#, .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "extra as an object", #"{"ips":["1.1.1.1"],"ttl":60,"extra":{"k":["v",1]}}"#, .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "origin_ttl negative", #"{"ips":["1.1.1.1"],"ttl":60,"origin_ttl":-1}"#, .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "origin_ttl a string", #"{"ips":["1.1.1.1"],"ttl":60,"origin_ttl":"600"}"#, .ok(["1.1.1.1"], ttl: 60)),
        HTTPDNSCase(
            "client_ip not an IP is left out", #"{"ips":["1.1.1.1"],"client_ip":"me"}"#, .ok(["1.1.1.1"])),
        HTTPDNSCase("client_ip empty is left out", #"{"ips":["1.1.1.1"],"client_ip":""}"#, .ok(["1.1.1.1"])),
        HTTPDNSCase("client_ip a number is left out", #"{"ips":["1.1.1.1"],"client_ip":17}"#, .ok(["1.1.1.1"])),
        HTTPDNSCase(
            "client_ip IPv6 is kept", #"{"ips":["1.1.1.1"],"client_ip":"240E::9"}"#, .ok(["1.1.1.1"], client: "240e::9")),
        HTTPDNSCase(
            "no ips key, with every unused field odd", #"{"host":"api.example.com","ttl":60,"origin_ttl":null,"client_ip":{},"extra":[1]}"#,
            .noAnswer("no answer (no 'ips' or 'ipsv6')")),

        HTTPDNSCase(
            "InvalidAccount", status: 403, #"{"code":"InvalidAccount"}"#, .serviceError("InvalidAccount (HTTP 403)")),
        HTTPDNSCase(
            "MissingArgument", status: 400, #"{"code":"MissingArgument"}"#, .serviceError("MissingArgument (HTTP 400)")),
        HTTPDNSCase(
            "error code with 200", #"{"code":"TooManyHosts"}"#, .serviceError("TooManyHosts (HTTP 200)")),
        HTTPDNSCase(
            "HTTP 500", status: 500, "Internal Server Error",
            .serviceError("HTTP 500: 'Internal Server Error' (21 bytes)")),
        HTTPDNSCase(
            "HTTP 502 page", status: 502, httpdnsHTMLPage,
            .serviceError("HTTP 502: '<html><body>Bad gateway: the upstream HTTPDNS server did not…' (812 bytes)")),
        HTTPDNSCase("HTTP 503 with nothing", status: 503, "", .serviceError("HTTP 503 with an empty body")),
        HTTPDNSCase(
            "HTTP 500 with an answer-looking body", status: 500, #"{"ips":["1.1.1.1"]}"#,
            .serviceError(#"HTTP 500: '{"ips":["1.1.1.1"]}' (19 bytes)"#)),
    ]

    static let malformedCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "HTML page with 200", httpdnsHTMLPage,
            .garbage("not an Alibaba HTTPDNS answer: '<html><body>Bad gateway: the upstream HTTPDNS server did not…' (812 bytes)")),
        HTTPDNSCase(
            "truncated JSON", #"{"host":"api.example.com","ips":["1.1.1."#,
            .garbage(#"not an Alibaba HTTPDNS answer: '{"host":"api.example.com","ips":["1.1.1.' (40 bytes)"#)),
        HTTPDNSCase("empty body", "", .garbage("not an Alibaba HTTPDNS answer: '' (0 bytes)")),
        HTTPDNSCase(
            "trailing garbage", #"{"ips":["1.1.1.1"]} x"#,
            .garbage(#"not an Alibaba HTTPDNS answer: '{"ips":["1.1.1.1"]} x' (21 bytes)"#)),
        HTTPDNSCase("a JSON list", #"["1.1.1.1"]"#, .garbage(#"not an Alibaba HTTPDNS answer: '["1.1.1.1"]' (11 bytes)"#)),
        HTTPDNSCase(
            "DNSPod text", "1.1.1.1,60", .garbage("not an Alibaba HTTPDNS answer: '1.1.1.1,60' (10 bytes)")),
        HTTPDNSCase(
            "ips a string", #"{"ips":"1.1.1.1"}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ips' is not a list of strings): '{"ips":"1.1.1.1"}' (17 bytes)"#)),
        HTTPDNSCase(
            "ips numbers", #"{"ips":[1]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ips' is not a list of strings): '{"ips":[1]}' (11 bytes)"#)),
        HTTPDNSCase(
            "ipsv6 an object", #"{"ips":[],"ipsv6":{}}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ipsv6' is not a list of strings): '{"ips":[],"ipsv6":{}}' (21 bytes)"#)),
        HTTPDNSCase(
            "ttl a string", #"{"ips":["1.1.1.1"],"ttl":"60"}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ttl' is not an integer): '{"ips":["1.1.1.1"],"ttl":"60"}' (30 bytes)"#)),
        HTTPDNSCase(
            "ttl a boolean", #"{"ips":["1.1.1.1"],"ttl":true}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ttl' is not an integer): '{"ips":["1.1.1.1"],"ttl":true}' (30 bytes)"#)),
        HTTPDNSCase(
            "ttl a fraction", #"{"ips":["1.1.1.1"],"ttl":1.5}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ttl' is not an integer): '{"ips":["1.1.1.1"],"ttl":1.5}' (29 bytes)"#)),
        HTTPDNSCase(
            "negative ttl", #"{"ips":["1.1.1.1"],"ttl":-5}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ttl' -5 out of range): '{"ips":["1.1.1.1"],"ttl":-5}' (28 bytes)"#)),
        HTTPDNSCase(
            "ttl over a year", #"{"ips":["1.1.1.1"],"ttl":40000000}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('ttl' 40000000 out of range): '{"ips":["1.1.1.1"],"ttl":40000000}' (34 bytes)"#)),
        HTTPDNSCase(
            "IPv6 in ips", #"{"ips":["240e::1"]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer (IPv6 address '240e::1' in 'ips'): '{"ips":["240e::1"]}' (19 bytes)"#)),
        HTTPDNSCase(
            "IPv4 in ipsv6", #"{"ips":[],"ipsv6":["1.1.1.1"]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer (IPv4 address '1.1.1.1' in 'ipsv6'): '{"ips":[],"ipsv6":["1.1.1.1"]}' (30 bytes)"#)),
        HTTPDNSCase(
            "bad IP literal", #"{"ips":["1.1.1"]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer (bad IP address '1.1.1' in 'ips'): '{"ips":["1.1.1"]}' (17 bytes)"#)),
        HTTPDNSCase(
            "empty IP literal", #"{"ips":[""]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer (bad IP address '' in 'ips'): '{"ips":[""]}' (12 bytes)"#)),
        HTTPDNSCase(
            "answer for another host", #"{"host":"evil.example.net","ips":["1.1.1.1"]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer (answer for 'evil.example.net', not 'api.example.com'): '{"host":"evil.example.net","ips":["1.1.1.1"]}' (45 bytes)"#)),
        HTTPDNSCase(
            "host a number", #"{"host":1,"ips":["1.1.1.1"]}"#,
            .garbage(#"not an Alibaba HTTPDNS answer ('host' is not a string): '{"host":1,"ips":["1.1.1.1"]}' (28 bytes)"#)),
    ]

    @Test("well-formed answers, no answers and service errors", arguments: answerCases)
    func parsesAnswers(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.alibaba) == testCase.expected)
    }

    @Test("malformed bodies are garbage, quoted", arguments: malformedCases)
    func rejectsMalformed(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.alibaba) == testCase.expected)
    }
}
