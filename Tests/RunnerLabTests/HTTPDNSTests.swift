import Foundation
import PlanFixtures
import RunnerLab
import Testing

/// One HTTPDNS lookup and the exact response it must get.
struct HTTPDNSCase: CustomTestStringConvertible, Sendable {
    /// Path and query under `/httpdns/`.
    let lookup: String
    let status: Int
    let contentType: String
    let body: String

    var testDescription: String { lookup }

    static let text = "text/plain; charset=utf-8"
    static let json = "application/json"
    static let dnsJSON = "application/dns-json"

    static let all: [HTTPDNSCase] = [
        // DNSPod text.
        .init(lookup: "dnspod/d?dn=api.lab.test&ttl=1", status: 200, contentType: text, body: "127.0.0.2;127.0.0.5,60"),
        .init(lookup: "dnspod/d?dn=API.lab.test.", status: 200, contentType: text, body: "127.0.0.2;127.0.0.5"),
        .init(lookup: "dnspod/d?dn=api.lab.test&type=aaaa&ttl=1", status: 200, contentType: text, body: "::1,60"),
        .init(
            lookup: "dnspod/d?dn=api.lab.test&type=addrs&ttl=1", status: 200, contentType: text,
            body: "127.0.0.2;127.0.0.5,60-::1,60"),
        .init(lookup: "dnspod/d?dn=v6only.lab.test&type=addrs&ttl=1", status: 200, contentType: text, body: "0-::1,60"),
        .init(
            lookup: "dnspod/d?dn=api.lab.test&ttl=1&clientip=1", status: 200, contentType: text,
            body: "127.0.0.2;127.0.0.5,60|127.0.0.1"),
        .init(
            lookup: "dnspod/d?dn=api.lab.test,shortttl.lab.test,nowhere.lab.test&ttl=1", status: 200,
            contentType: text,
            body: "api.lab.test.:127.0.0.2;127.0.0.5,60\nshortttl.lab.test.:127.0.0.2,1\nnowhere.lab.test.:0"),
        .init(lookup: "dnspod/d?dn=cname.lab.test&ttl=1", status: 200, contentType: text, body: "127.0.0.2,60"),
        // The vendor's "no record" forms: `0-0` for type=addrs, `host|clientip` with clientip=1,
        // the whole body `0` for zero.lab.test; the client suffix once, after a batch's last line.
        .init(lookup: "dnspod/d?dn=nowhere.lab.test&type=addrs&ttl=1", status: 200, contentType: text, body: "0-0"),
        .init(lookup: "dnspod/d?dn=nowhere.lab.test&ttl=1&clientip=1", status: 200, contentType: text, body: "nowhere.lab.test|127.0.0.1"),
        .init(lookup: "dnspod/d?dn=zero.lab.test&ttl=1", status: 200, contentType: text, body: "0"),
        .init(
            lookup: "dnspod/d?dn=nowhere.lab.test,api.lab.test&ttl=1&clientip=1", status: 200, contentType: text,
            body: "nowhere.lab.test.:0\napi.lab.test.:127.0.0.2;127.0.0.5,60|127.0.0.1"),
        // The other formats' sample names are names DNSPod does not know.
        .init(lookup: "dnspod/d?dn=noips.lab.test&ttl=1", status: 200, contentType: text, body: ""),

        .init(lookup: "dnspod/d?dn=nowhere.lab.test&ttl=1", status: 200, contentType: text, body: ""),
        // A named client is answered its population's edges (`LabDNS.populations`): gd-mobile the
        // primary, bj-unicom an edge that is down, sh-telecom the replica; any other client the table.
        .init(lookup: "dnspod/d?dn=api.lab.test&ttl=1&ip=120.196.3.4", status: 200, contentType: text, body: "127.0.0.2,120"),
        .init(lookup: "dnspod/d?dn=api.lab.test&ttl=1&ip=123.112.0.9", status: 200, contentType: text, body: "127.0.0.9,120"),
        .init(lookup: "dnspod/d?dn=api.lab.test&ttl=1&ip=101.80.200.1", status: 200, contentType: text, body: "127.0.0.5,120"),
        .init(lookup: "dnspod/d?dn=api.lab.test&ttl=1&ip=8.8.8.8", status: 200, contentType: text, body: "127.0.0.2;127.0.0.5,60"),
        .init(lookup: "dnspod/d?dn=sni.lab.test&ttl=1&ip=120.196.3.4", status: 200, contentType: text, body: "127.0.0.3,60"),
        .init(
            lookup: "alibaba/lab/d?host=api.lab.test&ip=123.112.0.9", status: 200, contentType: json,
            body: #"{"host":"api.lab.test","ips":["127.0.0.9"],"ttl":120,"origin_ttl":120}"#),
        .init(
            lookup: "json/v1/resolve?name=api.lab.test&ip=101.80.0.1", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.5"],"v6":[],"ttl":120}}"#),
        // Alibaba EMAS JSON.
        .init(
            lookup: "alibaba/lab/d?host=api.lab.test", status: 200, contentType: json,
            body: #"{"host":"api.lab.test","ips":["127.0.0.2","127.0.0.5"],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "alibaba/lab/d?host=api.lab.test&query=6", status: 200, contentType: json,
            body: #"{"host":"api.lab.test","ipsv6":["::1"],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "alibaba/100000/d?host=api.lab.test&query=4,6", status: 200, contentType: json,
            body: #"{"host":"api.lab.test","ips":["127.0.0.2","127.0.0.5"],"ipsv6":["::1"],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "alibaba/lab/d?host=nowhere.lab.test", status: 200, contentType: json,
            body: #"{"host":"nowhere.lab.test","ips":[],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "alibaba/bad/d?host=api.lab.test", status: 403, contentType: json,
            body: #"{"code":"InvalidAccount"}"#),
        // The vendor's samples: no `ips` key at all; the fields a client need not read, in odd types.
        .init(
            lookup: "alibaba/lab/d?host=noips.lab.test&query=4,6", status: 200, contentType: json,
            body: #"{"host":"noips.lab.test","ttl":60}"#),
        .init(
            lookup: "alibaba/lab/d?host=oddfields.lab.test", status: 200, contentType: json,
            body: #"{"host":"oddfields.lab.test","ips":["127.0.0.2"],"ttl":60,"origin_ttl":"60","client_ip":"","extra":{"tag":"lab"}}"#),
        .init(
            lookup: "alibaba/lab/d?host=zero.lab.test", status: 200, contentType: json,
            body: #"{"host":"zero.lab.test","ips":[],"ttl":60,"origin_ttl":60}"#),
        // In-house JSON.
        .init(
            lookup: "json/v1/resolve?name=api.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.2","127.0.0.5"],"v6":["::1"],"ttl":60}}"#),
        .init(
            lookup: "json/v1/resolve?name=V6ONLY.lab.test.", status: 200, contentType: json,
            body: #"{"answer":{"v4":[],"v6":["::1"],"ttl":60}}"#),
        .init(
            lookup: "json/v1/resolve?name=shortttl.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.2"],"v6":[],"ttl":1}}"#),
        .init(
            lookup: "json/v1/resolve?name=nowhere.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":[],"v6":[],"ttl":60}}"#),
        .init(
            lookup: "json/v1/resolve?name=badjson.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.2","not-an-address"],"v6":[],"ttl":60}}"#),
        .init(
            lookup: "json/v1/resolve?name=negttl.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.2"],"v6":[],"ttl":-5}}"#),
        .init(lookup: "json/v1/resolve?host=api.lab.test", status: 400, contentType: text, body: "bad request: json wants name=HOST\n"),
        // The strictness names belong to the JSON format alone.
        .init(lookup: "dnspod/d?dn=badjson.lab.test&ttl=1", status: 200, contentType: text, body: ""),
        .init(
            lookup: "alibaba/lab/d?host=negttl.lab.test", status: 200, contentType: json,
            body: #"{"host":"negttl.lab.test","ips":[],"ttl":60,"origin_ttl":60}"#),
        // DoH JSON.
        .init(
            lookup: "doh/resolve?name=api.lab.test&type=A", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"api.lab.test.","type":1,"TTL":60,"data":"127.0.0.2"},"#
                + #"{"name":"api.lab.test.","type":1,"TTL":60,"data":"127.0.0.5"}]}"#),
        .init(
            lookup: "doh/resolve?name=api.lab.test&type=28", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"api.lab.test.","type":28,"TTL":60,"data":"::1"}]}"#),
        .init(
            lookup: "doh/resolve?name=cname.lab.test&type=1", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"cname.lab.test.","type":5,"TTL":60,"data":"api.lab.test."},"#
                + #"{"name":"api.lab.test.","type":1,"TTL":60,"data":"127.0.0.2"}]}"#),
        .init(
            lookup: "doh/resolve?name=sni.lab.test&type=AAAA", status: 200, contentType: dnsJSON,
            body: #"{"Status":0}"#),
        .init(
            lookup: "doh/resolve?name=nowhere.lab.test&type=A", status: 200, contentType: dnsJSON,
            body: #"{"Status":3}"#),

        // rank.lab.test: the dead rank edge first, then the slow, then the fast, and ::1; each
        // population its own order (TTL 120). fallback.lab.test: every format's "no record" form.
        .init(lookup: "dnspod/d?dn=rank.lab.test&ttl=1", status: 200, contentType: text, body: "127.0.0.17;127.0.0.16;127.0.0.15,60"),
        .init(
            lookup: "dnspod/d?dn=rank.lab.test&type=addrs&ttl=1", status: 200, contentType: text,
            body: "127.0.0.17;127.0.0.16;127.0.0.15,60-::1,60"),
        .init(lookup: "dnspod/d?dn=rank.lab.test&ttl=1&ip=120.196.3.4", status: 200, contentType: text, body: "127.0.0.16;127.0.0.15;127.0.0.17,120"),
        .init(lookup: "dnspod/d?dn=rank.lab.test&ttl=1&ip=123.112.0.9", status: 200, contentType: text, body: "127.0.0.17;127.0.0.16;127.0.0.15,120"),
        .init(lookup: "dnspod/d?dn=rank.lab.test&ttl=1&ip=101.80.200.1", status: 200, contentType: text, body: "127.0.0.15;127.0.0.17;127.0.0.16,120"),
        .init(lookup: "dnspod/d?dn=rank.lab.test&ttl=1&ip=113.96.1.1", status: 200, contentType: text, body: "127.0.0.17;127.0.0.15;127.0.0.16,120"),
        .init(lookup: "dnspod/d?dn=fallback.lab.test&ttl=1", status: 200, contentType: text, body: ""),
        .init(lookup: "dnspod/d?dn=fallback.lab.test&type=addrs&ttl=1", status: 200, contentType: text, body: "0-0"),
        .init(
            lookup: "alibaba/lab/d?host=rank.lab.test&query=4,6", status: 200, contentType: json,
            body: #"{"host":"rank.lab.test","ips":["127.0.0.17","127.0.0.16","127.0.0.15"],"ipsv6":["::1"],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "alibaba/lab/d?host=rank.lab.test&ip=113.96.1.1", status: 200, contentType: json,
            body: #"{"host":"rank.lab.test","ips":["127.0.0.17","127.0.0.15","127.0.0.16"],"ttl":120,"origin_ttl":120}"#),
        .init(
            lookup: "alibaba/lab/d?host=fallback.lab.test&query=4,6", status: 200, contentType: json,
            body: #"{"host":"fallback.lab.test","ips":[],"ipsv6":[],"ttl":60,"origin_ttl":60}"#),
        .init(
            lookup: "json/v1/resolve?name=rank.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.17","127.0.0.16","127.0.0.15"],"v6":["::1"],"ttl":60}}"#),
        .init(
            lookup: "json/v1/resolve?name=rank.lab.test&ip=101.80.0.1", status: 200, contentType: json,
            body: #"{"answer":{"v4":["127.0.0.15","127.0.0.17","127.0.0.16"],"v6":["::1"],"ttl":120}}"#),
        .init(
            lookup: "json/v1/resolve?name=fallback.lab.test", status: 200, contentType: json,
            body: #"{"answer":{"v4":[],"v6":[],"ttl":60}}"#),
        .init(
            lookup: "doh/resolve?name=rank.lab.test&type=A", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"rank.lab.test.","type":1,"TTL":60,"data":"127.0.0.17"},"#
                + #"{"name":"rank.lab.test.","type":1,"TTL":60,"data":"127.0.0.16"},"#
                + #"{"name":"rank.lab.test.","type":1,"TTL":60,"data":"127.0.0.15"}]}"#),
        .init(
            lookup: "doh/resolve?name=rank.lab.test&type=AAAA", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"rank.lab.test.","type":28,"TTL":60,"data":"::1"}]}"#),
        .init(
            lookup: "doh/resolve?name=rank.lab.test&type=A&edns_client_subnet=120.196.0.0/24", status: 200, contentType: dnsJSON,
            body: #"{"Status":0,"Answer":[{"name":"rank.lab.test.","type":1,"TTL":120,"data":"127.0.0.16"},"#
                + #"{"name":"rank.lab.test.","type":1,"TTL":120,"data":"127.0.0.15"},"#
                + #"{"name":"rank.lab.test.","type":1,"TTL":120,"data":"127.0.0.17"}]}"#),
        .init(lookup: "doh/resolve?name=fallback.lab.test&type=A", status: 200, contentType: dnsJSON, body: #"{"Status":0}"#),
        .init(lookup: "doh/resolve?name=fallback.lab.test&type=AAAA", status: 200, contentType: dnsJSON, body: #"{"Status":0}"#),
    ]
}

/// `http://ADDRESS:PORT` + a format's lookup path for `host`.
func httpdnsURL(_ format: LabDNS.Format, _ host: String, lab: Lab, address: String = LabAddress.primary) -> String {
    LabDNS.urlTemplate(format, port: lab.httpPort, address: address).replacingOccurrences(of: "{host}", with: host)
}

@Suite(.timeLimit(.minutes(3))) struct HTTPDNSTests {
    @Test(arguments: HTTPDNSCase.all)
    func answers(_ lookup: HTTPDNSCase) async throws {
        try await withLab { lab in
            let result = try await Command.curl([
                "--dump-header", "/dev/stderr", "http://\(LabAddress.primary):\(lab.httpPort)/httpdns/\(lookup.lookup)",
            ])
            #expect(result.exitCode == 0, "\(result.errorOutput)")
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 \(lookup.status) "), "\(result.errorOutput)")
            #expect(
                result.errorOutput.lowercased().contains("content-type: \(lookup.contentType)\r\n"),
                "\(result.errorOutput)")
            #expect(result.text == lookup.body)
        }
    }

    /// Formats whose URL template is the whole query (signed and wire formats have their own fault tests).
    static let templateFormats: [LabDNS.Format] = [.dnspod, .alibaba, .dohJSON, .json]

    @Test(arguments: templateFormats)
    func faultHostsMisbehaveTheSameInEveryFormat(_ format: LabDNS.Format) async throws {
        try await withLab { lab in
            let headers = ["--dump-header", "/dev/stderr"]
            let empty = try await Command.curl(headers + [httpdnsURL(format, "empty.lab.test", lab: lab)])
            let emptyBodies: [LabDNS.Format: String] = [
                .dnspod: "",
                .alibaba: #"{"host":"empty.lab.test","ips":[],"ttl":60,"origin_ttl":60}"#,
                .dohJSON: #"{"Status":0}"#,
                .json: #"{"answer":{"v4":[],"v6":[],"ttl":60}}"#,
            ]
            #expect(empty.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(empty.errorOutput)")
            #expect(empty.text == emptyBodies[format])

            let garbage = try await Command.curl(headers + [httpdnsURL(format, "garbage.lab.test", lab: lab)])
            #expect(garbage.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(garbage.errorOutput)")
            #expect(garbage.errorOutput.lowercased().contains("content-type: text/html"), "\(garbage.errorOutput)")
            #expect(garbage.text == "<html><body>Bad gateway</body></html>")

            let error = try await Command.curl(headers + [httpdnsURL(format, "error.lab.test", lab: lab)])
            #expect(error.errorOutput.hasPrefix("HTTP/1.1 500 "), "\(error.errorOutput)")
            #expect(error.text == LabDNS.serverErrorText)

            // Nothing comes back, not even a status line, however long the client waits.
            let hang = try await Command.run(
                "curl", ["--silent", "--max-time", "1", "--include", httpdnsURL(format, "hang.lab.test", lab: lab)])
            #expect(hang.exitCode == 28, "curl should time out: \(hang.errorOutput)")
            #expect(hang.output.isEmpty)
            #expect(lab.httpdnsLookups(format: format.rawValue, host: "hang.lab.test") == 1)

            // The lab is still answering after the client gave up on the hanging lookup.
            let after = try await Command.curl([httpdnsURL(format, "sni.lab.test", lab: lab)])
            #expect(after.text.contains("127.0.0.3"), "\(after.text)")
        }
    }

    @Test func slowAnswersCorrectlyAfterThreeSecondsAndIsCountedOnArrival() async throws {
        try await withLab { lab in
            let started = Date()
            let slowAnswered = AnsweredFlag()
            let slow = Task {
                defer { slowAnswered.set() }
                return try await Command.curl([httpdnsURL(.dnspod, "slow.lab.test", lab: lab)])
            }
            // Counted as soon as the request is in: while the answer is still held back (the lab
            // holds it 3 s). Judged by order, not by clock readings a loaded machine can delay.
            try #require(
                await eventually { lab.httpdnsLookups(host: "slow.lab.test") == 1 },
                "the slow lookup never reached the lab")
            #expect(!slowAnswered.isSet, "the lookup was counted only once it was answered")
            // The wait holds up no thread: other lookups answer meanwhile.
            let quick = try await Command.curl([httpdnsURL(.dohJSON, "api.lab.test", lab: lab)])
            #expect(quick.text.hasPrefix(#"{"Status":0,"Answer":"#), "\(quick.text)")
            #expect(!slowAnswered.isSet, "the quick lookup answered only after the slow one")

            let answer = try await slow.value
            let elapsed = Date().timeIntervalSince(started)
            #expect(answer.exitCode == 0, "\(answer.errorOutput)")
            #expect(answer.text == "127.0.0.2,60")
            #expect(elapsed >= 3)
        }
    }

    @Test func countsEveryLookupPerFormatAndName() async throws {
        try await withLab { lab in
            let https = [
                "--cacert", lab.caFile,
                "--connect-to", "api.lab.test:\(lab.httpsPort):\(authority(LabAddress.ipv6, lab.httpsPort))",
            ]
            let lookups: [[String]] = [
                [httpdnsURL(.dnspod, "api.lab.test,sni.lab.test", lab: lab)],
                [httpdnsURL(.alibaba, "API.lab.test", lab: lab, address: LabAddress.expired)],
                ["http://\(LabAddress.primary):\(lab.httpPort)/httpdns/alibaba/bad/d?host=api.lab.test"],
                [httpdnsURL(.dohJSON, "api.lab.test.", lab: lab) + "&type=A"],
                // Any address and either port: the service is just paths.
                https + ["https://api.lab.test:\(lab.httpsPort)/httpdns/doh/resolve?name=api.lab.test&type=AAAA"],
            ]
            for arguments in lookups {
                let result = try await Command.curl(arguments)
                #expect(result.exitCode == 0, "\(arguments): \(result.errorOutput)")
            }
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 5)
            #expect(lab.httpdnsLookups(host: "API.LAB.TEST.") == 5)
            #expect(lab.httpdnsLookups(format: "dnspod", host: "api.lab.test") == 1)
            #expect(lab.httpdnsLookups(format: "alibaba", host: "api.lab.test") == 2)
            #expect(lab.httpdnsLookups(format: "doh-json", host: "api.lab.test") == 2)
            #expect(lab.httpdnsLookups(format: .dnspod, host: "sni.lab.test") == 1)
            #expect(lab.httpdnsLookups(host: "sni.lab.test") == 1)
            #expect(lab.httpdnsLookups(host: "nowhere.lab.test") == 0)
            #expect(lab.httpdnsLookups(format: "bogus", host: "api.lab.test") == 0)
            // A format counts apart from the others.
            let json = try await Command.curl([httpdnsURL(.json, "api.lab.test", lab: lab)])
            #expect(json.exitCode == 0, "\(json.errorOutput)")
            #expect(lab.httpdnsLookups(format: .json, host: "api.lab.test") == 1)
            #expect(lab.httpdnsLookups(format: "json", host: "api.lab.test") == 1)
            #expect(lab.httpdnsLookups(format: .dnspod, host: "api.lab.test") == 1)
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 6)
        }
    }
}

/// Set once, read from any thread: whether a request has had its answer.
private final class AnsweredFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
