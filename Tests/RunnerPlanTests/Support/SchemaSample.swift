/// A small plan on which the decoder and the schema must agree: both accept it, or both refuse
/// it. The accepted ones write a value in each shape the decoder takes (a scalar for a list, a
/// number for a string, a `${…}` for a number); the refused ones a mistake an editor should
/// underline.
struct SchemaSample: Sendable, CustomStringConvertible {
    var label: String
    var yaml: String
    var valid: Bool

    var description: String { label }

    /// The environment the samples load with: the secrets their `auth` maps name.
    static let environment = ["HTTPDNS_SECRET": "0123456789abcdef"]

    /// A plan with one scenario on a static map, `lines` added to the scenario (block style,
    /// indented as its keys).
    static func scenario(_ lines: String, request: String = "{url: \"https://api.example.com/health\"}") -> String {
        """
        version: 1
        vars:
          n: "2"
          follow: "true"
          t: 1500ms
        domains:
          shipped: {static: {api.example.com: [203.0.113.10, "2001:db8::10"]}}
        scenarios:
          - name: s
            domains: shipped
            request: \(request)
        \(indent(lines, by: 4))
        """
    }

    /// A plan whose scenario expects `lines` (block style, indented as `expect`'s keys).
    static func expect(_ lines: String) -> String {
        scenario("expect:\n" + indent(lines, by: 2))
    }

    /// A plan with an `httpdns` map `lines` (indented as its keys) that its scenario uses.
    static func httpdns(_ lines: String) -> String {
        """
        version: 1
        domains:
          shipped: {static: {api.example.com: [203.0.113.10]}}
          service:
            httpdns:
        \(indent(lines, by: 6))
        scenarios:
          - name: s
            domains: service
            request: {url: "https://api.example.com/health"}

        """
    }

    private static func indent(_ lines: String, by count: Int) -> String {
        let pad = String(repeating: " ", count: count)
        return lines.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(separator: "\n")
    }

    static let alibaba = "format: alibaba\nurl: \"https://203.107.1.1/100000/sign_d?host={host}\""
    static let dnspod = "format: dnspod\nurl: \"http://119.29.29.98/d?dn={host}&id=1\""

    static let all: [SchemaSample] = accepted + refused

    static let accepted: [SchemaSample] = [
        SchemaSample(label: "strategy as one name", yaml: scenario("strategy: sni-resolve"), valid: true),
        SchemaSample(label: "strategy as a list", yaml: scenario("strategy: [sni-resolve, trust-override]"), valid: true),
        SchemaSample(label: "tags as one word", yaml: scenario("tags: smoke"), valid: true),
        SchemaSample(label: "tags as a list", yaml: scenario("tags: [gate, monitor]"), valid: true),
        SchemaSample(label: "durations in ms, fractional s and m", yaml: scenario("timeout: 1500ms\nconnect_timeout: 1.5s\nexpect: {time: {total: 1m}}"), valid: true),
        SchemaSample(label: "a size as a number", yaml: scenario("max_body: 1048576"), valid: true),
        SchemaSample(label: "a size with a unit after a space", yaml: scenario("max_body: 1 MiB"), valid: true),
        SchemaSample(label: "a size quoted", yaml: scenario("max_body: \"512KiB\""), valid: true),
        SchemaSample(label: "http as a number", yaml: scenario("http: 2"), valid: true),
        SchemaSample(label: "http 1.1 plain (a YAML float)", yaml: scenario("http: 1.1"), valid: true),
        SchemaSample(label: "http quoted", yaml: scenario("http: \"1.1\""), valid: true),
        SchemaSample(label: "ip_version as a number", yaml: scenario("ip_version: 6"), valid: true),
        SchemaSample(label: "ip_version quoted", yaml: scenario("ip_version: \"4\""), valid: true),
        SchemaSample(label: "an integer, a boolean and a duration from variables", yaml: scenario("retries: ${n}\nfollow_redirects: ${follow}\ntimeout: ${t}"), valid: true),
        SchemaSample(label: "status as a class", yaml: expect("status: 2xx"), valid: true),
        SchemaSample(label: "status as a class in capitals", yaml: expect("status: 3XX"), valid: true),
        SchemaSample(label: "status as a list", yaml: expect("status: [200, 204]"), valid: true),
        SchemaSample(label: "status from a variable", yaml: expect("status: ${n}00"), valid: true),
        SchemaSample(label: "header matchers as a string and as mappings", yaml: expect("headers:\n  Content-Type: application/json\n  X-Debug: {absent: true}\n  X-Id: {matches: \"^[0-9a-f]+$\"}"), valid: true),
        SchemaSample(label: "a header value YAML reads as a number", yaml: scenario("headers: {X-Retry: 3}"), valid: true),
        SchemaSample(label: "a certificate issuer as a string, its subject as a matcher", yaml: expect("certificate:\n  min_days_left: 14\n  issuer: CN=R3,O=Let's Encrypt,C=US\n  subject: {contains: example}"), valid: true),
        SchemaSample(label: "body json with nested values", yaml: expect("body:\n  json: {\"$.a\": [1, two], \"$.b\": {c: null}, \"$.c\": ~}\n  sha256: E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"), valid: true),
        SchemaSample(label: "body json_exists as one path", yaml: expect("body: {json_exists: $.token}"), valid: true),
        SchemaSample(label: "body json_exists as a list, beside json", yaml: expect("body:\n  json_exists: [$.token, \"$['full name']\", \"$.items[0]\"]\n  json: {\"$.ok\": true}"), valid: true),
        SchemaSample(label: "http_version as a number, redirects and final_url", yaml: expect("http_version: 2\nredirects: 0\nfinal_url: https://api.example.com/health"), valid: true),
        SchemaSample(label: "a name YAML reads as a number", yaml: "version: 1\nname: 2024\nscenarios: [{name: 1, request: {url: \"http://api.example.com/\"}}]\n", valid: true),
        SchemaSample(label: "a variable without a value", yaml: "version: 1\nvars: {empty: ~}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: true),
        SchemaSample(label: "a static host with one address, not a list", yaml: "version: 1\ndomains: {m: {static: {api.example.com: 203.0.113.10}}}\nscenarios: [{name: a, domains: m, request: {url: \"http://api.example.com/\"}}]\n", valid: true),
        SchemaSample(label: "a body from base64, a method in lower case", yaml: scenario("", request: "{method: post, url: \"https://api.example.com/\", body_base64: \"aGk=\", insecure: true}"), valid: true),
        SchemaSample(label: "doh with one service address and POST", yaml: httpdns("format: doh\nurl: \"https://dns.alidns.com/dns-query\"\nmethod: POST\nservice_ips: 223.5.5.5\nfallback: shipped"), valid: true),
        SchemaSample(label: "json with answer paths, signed", yaml: httpdns("format: json\nurl: \"https://httpdns.example.com/resolve?domain={host}&account_id=1\"\nanswer: {ips: \"$.data.ipv4[*]\", ipv6: \"$.data.ipv6[*]\", ttl: $.data.ttl}\nauth: {scheme: volcengine-sign, secret: \"${secret:HTTPDNS_SECRET}\", valid_for: 5m}"), valid: true),
        SchemaSample(label: "dnspod encrypted with AES", yaml: httpdns(dnspod + "\nauth: {scheme: dnspod-aes, key: \"${secret:HTTPDNS_SECRET}\"}\ntimeout: 1s"), valid: true),
        SchemaSample(label: "an SDK that ranks, reuses expired answers for a while, persists them; retain: sdk", yaml: httpdns(dnspod + "\nsdk: {profile: tencent-android, rank: {port: 443}, expired: 90s, cache: {persist: true, discard_after: 7d}}\nretain: sdk"), valid: true),
        SchemaSample(label: "an SDK with rank: false and expired as a boolean", yaml: httpdns(dnspod + "\nsdk:\n  profile: alibaba-android\n  rank: false\n  expired: false\n  cache: {persist: false}\nretain: 24h"), valid: true),
        SchemaSample(label: "an SDK ranking on its default port", yaml: httpdns(dnspod + "\nsdk: {profile: alibaba-ios, rank: {}, expired: true}"), valid: true),
    ]

    static let refused: [SchemaSample] = [
        SchemaSample(label: "a duration without a unit", yaml: scenario("timeout: 10"), valid: false),
        SchemaSample(label: "a zero duration", yaml: scenario("timeout: 0s"), valid: false),
        SchemaSample(label: "a space before a duration's unit", yaml: scenario("timeout: 10 s"), valid: false),
        SchemaSample(label: "retries over 10", yaml: scenario("retries: 11"), valid: false),
        SchemaSample(label: "an integer quoted", yaml: scenario("retries: \"2\""), valid: false),
        SchemaSample(label: "an empty strategy list", yaml: scenario("strategy: []"), valid: false),
        SchemaSample(label: "a strategy twice", yaml: scenario("strategy: [auto, auto]"), valid: false),
        SchemaSample(label: "an unknown strategy", yaml: scenario("strategy: sni"), valid: false),
        SchemaSample(label: "ips neither first nor all", yaml: scenario("ips: some"), valid: false),
        SchemaSample(label: "yes is not a boolean", yaml: scenario("insecure: yes"), valid: false),
        SchemaSample(label: "a zero size", yaml: scenario("max_body: 0"), valid: false),
        SchemaSample(label: "a size in MB", yaml: scenario("max_body: 1MB"), valid: false),
        SchemaSample(label: "tags as a mapping", yaml: scenario("tags: {a: b}"), valid: false),
        SchemaSample(label: "two bodies", yaml: scenario("", request: "{url: \"https://api.example.com/\", body: a, body_base64: aGk=}"), valid: false),
        SchemaSample(label: "a request without url", yaml: scenario("", request: "{method: GET}"), valid: false),
        SchemaSample(label: "a status quoted", yaml: expect("status: \"200\""), valid: false),
        SchemaSample(label: "a status over 599", yaml: expect("status: 600"), valid: false),
        SchemaSample(label: "an empty status list", yaml: expect("status: []"), valid: false),
        SchemaSample(label: "a matcher with two keys", yaml: expect("headers: {X-Id: {equals: a, contains: b}}"), valid: false),
        SchemaSample(label: "absent: false", yaml: expect("headers: {X-Id: {absent: false}}"), valid: false),
        SchemaSample(label: "an HTTP version that does not exist", yaml: expect("http_version: \"1.2\""), valid: false),
        SchemaSample(label: "a sha256 that is not 64 hex digits", yaml: expect("body: {sha256: abc}"), valid: false),
        SchemaSample(label: "a JSON path without $", yaml: expect("body: {json: {a.b: 1}}"), valid: false),
        SchemaSample(label: "an empty json_exists list", yaml: expect("body: {json_exists: []}"), valid: false),
        SchemaSample(label: "a json_exists path without $", yaml: expect("body: {json_exists: [$.a, b.c]}"), valid: false),
        SchemaSample(label: "a negative redirect count", yaml: expect("redirects: -1"), valid: false),
        SchemaSample(label: "version 2", yaml: "version: 2\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "no scenarios", yaml: "version: 1\nscenarios: []\n", valid: false),
        SchemaSample(label: "no version", yaml: "scenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a scenario without a name", yaml: "version: 1\nscenarios: [{request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a map called system", yaml: "version: 1\ndomains: {system: {static: {a.example: [192.0.2.1]}}}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a map with both static and httpdns", yaml: "version: 1\ndomains: {m: {static: {a.example: [192.0.2.1]}, httpdns: {format: doh, url: \"https://d.example/q\"}}}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "an empty map", yaml: "version: 1\ndomains: {m: {}}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a static host with no address", yaml: "version: 1\ndomains: {m: {static: {a.example: []}}}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a static address that is a name", yaml: "version: 1\ndomains: {m: {static: {a.example: [b.example]}}}\nscenarios: [{name: a, request: {url: \"http://api.example.com/\"}}]\n", valid: false),
        SchemaSample(label: "a format misspelt", yaml: httpdns("format: dnsbod\nurl: \"http://119.29.29.98/d?dn={host}\""), valid: false),
        SchemaSample(label: "an unknown SDK profile", yaml: httpdns(dnspod + "\nsdk: {profile: tencent}"), valid: false),
        SchemaSample(label: "an SDK without a profile", yaml: httpdns(dnspod + "\nsdk: {expired: true}"), valid: false),
        SchemaSample(label: "rank: true", yaml: httpdns(dnspod + "\nsdk: {profile: alibaba-ios, rank: true}"), valid: false),
        SchemaSample(label: "a rank port over 65535", yaml: httpdns(dnspod + "\nsdk: {profile: alibaba-ios, rank: {port: 70000}}"), valid: false),
        SchemaSample(label: "expired neither a boolean nor a duration", yaml: httpdns(dnspod + "\nsdk: {profile: volcengine, expired: soon}"), valid: false),
        SchemaSample(label: "retain: sdk on a map without sdk", yaml: httpdns(dnspod + "\nretain: sdk"), valid: false),
        SchemaSample(label: "an httpdns map without url", yaml: httpdns("format: dnspod"), valid: false),
        SchemaSample(label: "method on a map that is not doh", yaml: httpdns(dnspod + "\nmethod: POST"), valid: false),
        SchemaSample(label: "format json without answer", yaml: httpdns("format: json\nurl: \"https://h.example/r?n={host}\""), valid: false),
        SchemaSample(label: "answer on a map that is not json", yaml: httpdns(dnspod + "\nanswer: {ips: $.ips}"), valid: false),
        SchemaSample(label: "answer without ips", yaml: httpdns("format: json\nurl: \"https://h.example/r?n={host}\"\nanswer: {ttl: $.ttl}"), valid: false),
        SchemaSample(label: "a doh URL with {host}", yaml: httpdns("format: doh\nurl: \"https://d.example/q?name={host}\""), valid: false),
        SchemaSample(label: "a dnspod URL without {host}", yaml: httpdns("format: dnspod\nurl: \"http://119.29.29.98/d\""), valid: false),
        SchemaSample(label: "a service address twice", yaml: httpdns("format: doh\nurl: \"https://d.example/q\"\nservice_ips: [223.5.5.5, 223.5.5.5]"), valid: false),
        SchemaSample(label: "a signing secret written in the plan", yaml: httpdns(alibaba + "\nauth: {scheme: alibaba-sign, secret: hunter2}"), valid: false),
        SchemaSample(label: "a signing secret from a variable", yaml: httpdns(alibaba + "\nauth: {scheme: alibaba-sign, secret: \"${env:HTTPDNS_SECRET}\"}"), valid: false),
        SchemaSample(label: "an auth scheme of another format", yaml: httpdns(dnspod + "\nauth: {scheme: alibaba-sign, secret: \"${secret:HTTPDNS_SECRET}\"}"), valid: false),
        SchemaSample(label: "auth on a doh map", yaml: httpdns("format: doh\nurl: \"https://d.example/q\"\nauth: {scheme: dnspod-des, key: \"${secret:HTTPDNS_SECRET}\"}"), valid: false),
        SchemaSample(label: "a signing scheme given a key", yaml: httpdns(alibaba + "\nauth: {scheme: alibaba-sign, key: \"${secret:HTTPDNS_SECRET}\"}"), valid: false),
        SchemaSample(label: "a cipher given a secret", yaml: httpdns(dnspod + "\nauth: {scheme: dnspod-des, secret: \"${secret:HTTPDNS_SECRET}\"}"), valid: false),
        SchemaSample(label: "valid_for on a cipher", yaml: httpdns(dnspod + "\nauth: {scheme: dnspod-des, key: \"${secret:HTTPDNS_SECRET}\", valid_for: 10m}"), valid: false),
        SchemaSample(label: "auth without a scheme", yaml: httpdns(alibaba + "\nauth: {secret: \"${secret:HTTPDNS_SECRET}\"}"), valid: false),
    ]
}
