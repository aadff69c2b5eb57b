import Foundation
import Testing

/// One malformed plan and the exact error it must produce.
public struct MalformedPlan: Sendable, CustomTestStringConvertible {
    public var name: String
    public var bytes: [UInt8]
    /// Files (relative to the plan's directory) that must exist for the plan to get that far.
    public var files: [String] = []
    /// `{file}` stands for the plan's path and `{dir}` for its directory.
    public var expected: String

    public init(_ name: String, _ yaml: String, files: [String] = [], _ expected: String) {
        self.name = name
        bytes = Array(yaml.utf8)
        self.files = files
        self.expected = expected
    }

    public init(_ name: String, bytes: [UInt8], _ expected: String) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    public var testDescription: String { name }

    /// Writes the plan (and the files it needs) into `workspace`; returns its path and the
    /// exact error text expected for that path.
    public func write(into workspace: PlanWorkspace) throws -> (path: String, expected: String) {
        for file in files { try workspace.write(file, "x") }
        let path = try workspace.write("bad.yaml", bytes: bytes)
        let text = expected
            .replacingOccurrences(of: "{file}", with: path)
            .replacingOccurrences(of: "{dir}", with: workspace.plans)
        return (path, text)
    }
}

/// A billion-laughs document: each level repeats the previous one nine times.
private let aliasBomb: String = {
    var lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    for level in 1..<names.count {
        let previous = names[level - 1]
        let items = Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
        lines.append("\(names[level]): &\(names[level]) [\(items)]")
    }
    return lines.joined(separator: "\n") + "\n"
}()

/// Every malformed plan the tests feed the parser (in process) and `runner check` (as a process).
public let malformedPlans: [MalformedPlan] = [
    MalformedPlan("unknown key with a suggestion", """
        version: 1
        scenarios:
          - name: login
            request:
              url: https://api.example.com/
            expct:
              status: 200
        """, "{file}:6:5: error: unknown key 'expct' in scenario 'login'; did you mean 'expect'?"),
    MalformedPlan("unknown key without a close match", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              verb: GET
        """,
        "{file}:6:7: error: unknown key 'verb' in request of scenario 'a'; expected one of method, url, headers, body, body_base64, body_file, insecure, grpc"
    ),
    MalformedPlan("a scenario key written in request is told to move up beside it", """
        version: 1
        scenarios:
          - name: login
            request: {url: https://api.example.com/, timeout: 1s}
        """,
        "{file}:4:46: error: unknown key 'timeout' in request of scenario 'login'; 'timeout' is a scenario key (defaults may set it for every scenario): move it out of 'request', up one level beside 'request:' (line 4)"
    ),
    MalformedPlan("each setting written in request is a scenario key", """
        version: 1
        scenarios:
          - name: login
            request:
              url: https://api.example.com/
              strategy: sni-resolve
        """,
        "{file}:6:7: error: unknown key 'strategy' in request of scenario 'login'; 'strategy' is a scenario key (defaults may set it for every scenario): move it out of 'request', up one level beside 'request:' (line 4)"
    ),
    MalformedPlan("an expect key written in request names the expect section's line", """
        version: 1
        scenarios:
          - name: login
            request:
              url: https://api.example.com/
              status: 201
            expect:
              body: {contains: ok}
        """,
        "{file}:6:7: error: unknown key 'status' in request of scenario 'login'; 'status' is an expect key: move it under 'expect:' (line 7)"
    ),
    MalformedPlan("an expect key in a scenario without expect is told to add one", """
        version: 1
        scenarios:
          - name: login
            request: {url: https://api.example.com/}
            status: 200
        """,
        "{file}:5:5: error: unknown key 'status' in scenario 'login'; 'status' is an expect key: move it under a new 'expect:' in the scenario"
    ),
    MalformedPlan("a request key written in expect", """
        version: 1
        scenarios:
          - name: login
            request:
              url: https://api.example.com/
            expect:
              method: POST
        """,
        "{file}:7:7: error: unknown key 'method' in expect of scenario 'login'; 'method' is a request key: move it under 'request:' (line 4)"
    ),
    MalformedPlan("a scenario key written in expect", """
        version: 1
        scenarios:
          - name: login
            request: {url: https://api.example.com/}
            expect: {status: 200, follow_redirects: false}
        """,
        "{file}:5:27: error: unknown key 'follow_redirects' in expect of scenario 'login'; 'follow_redirects' is a scenario key (defaults may set it for every scenario): move it out of 'expect', up one level beside 'expect:' (line 5)"
    ),
    MalformedPlan("a request key written on the scenario itself", """
        version: 1
        scenarios:
          - name: login
            method: POST
            request: {url: https://api.example.com/}
        """,
        "{file}:4:5: error: unknown key 'method' in scenario 'login'; 'method' is a request key: move it under 'request:' (line 5)"
    ),
    MalformedPlan("a misspelt scenario key in request is suggested with its home", """
        version: 1
        scenarios:
          - name: login
            request: {url: https://api.example.com/, conect_timeout: 1s}
        """,
        "{file}:4:46: error: unknown key 'conect_timeout' in request of scenario 'login'; did you mean 'connect_timeout'? 'connect_timeout' is a scenario key (defaults may set it for every scenario): move it out of 'request', up one level beside 'request:' (line 4)"
    ),
    MalformedPlan("http_version in request says what it is and what chooses the version", """
        version: 1
        scenarios:
          - name: login
            request: {url: https://api.example.com/, http_version: "2"}
        """,
        "{file}:4:46: error: unknown key 'http_version' in request of scenario 'login'; 'http_version' is an expect key (what the response must use; the scenario key 'http' chooses what is offered): move it under a new 'expect:' in the scenario"
    ),
    MalformedPlan("a setting at the top level belongs in defaults", """
        version: 1
        timeout: 2s
        defaults: {http: auto}
        scenarios:
          - name: a
            request: {url: https://api.example.com/}
        """,
        "{file}:2:1: error: unknown key 'timeout' at top level; 'timeout' is a scenario setting: move it under 'defaults:' (line 3) to set it for every scenario, or into a scenario"
    ),
    MalformedPlan("a request key in defaults cannot be set there", """
        version: 1
        defaults: {url: https://api.example.com/}
        scenarios:
          - name: a
            request: {url: https://api.example.com/}
        """,
        "{file}:2:12: error: unknown key 'url' in defaults; 'url' is a request key; defaults cannot set it: write it under each scenario's 'request:'"
    ),
    MalformedPlan("an httpdns key written directly in a domain map", """
        version: 1
        domains:
          m:
            httpdns: {format: dnspod, url: "http://127.0.0.1/d?dn={host}"}
            timeout: 2s
        scenarios:
          - name: a
            domains: m
            request: {url: https://api.example.com/}
        """,
        "{file}:5:5: error: unknown key 'timeout' in domain map 'm'; 'timeout' is an httpdns key: move it under 'httpdns:' (line 4)"
    ),
    MalformedPlan("duplicate key", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              url: http://other.example.com/
        """, "{file}:6:7: error: duplicate key 'url' (first at 5:7)"),
    MalformedPlan("bare-number duration", """
        version: 1
        defaults:
          timeout: 10
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:3:12: error: expected a duration with a unit such as '3s' or '250ms' for 'timeout' in defaults, got '10'"
    ),
    MalformedPlan("quoted bare-number duration", """
        version: 1
        scenarios:
          - name: a
            connect_timeout: "3"
            request: {url: http://api.example.com/}
        """,
        "{file}:4:22: error: expected a duration with a unit such as '3s' or '250ms' for 'connect_timeout' in scenario 'a', got '3'"
    ),
    MalformedPlan("zero duration", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              time: {total: 0ms}
        """, "{file}:6:21: error: expected a duration greater than zero for 'total' in expect.time of scenario 'a', got '0ms'"),
    MalformedPlan("IP literal that does not parse", """
        version: 1
        domains:
          builtin:
            static:
              api.example.com: [203.0.113.10, 203.0.113.999]
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:5:39: error: '203.0.113.999' is not an IP address (host 'api.example.com' in static of domain map 'builtin')"
    ),
    MalformedPlan("header-only with an https URL", """
        version: 1
        scenarios:
          - name: a
            strategy: header-only
            request:
              url: https://api.example.com/
        """,
        "{file}:4:15: error: strategy 'header-only' is for http:// URLs, but scenario 'a' requests https://; use 'trust-override' or 'sni-resolve'"
    ),
    MalformedPlan("header-only from defaults with an https URL", """
        version: 1
        defaults:
          strategy: header-only
        scenarios:
          - name: a
            request:
              url: https://api.example.com/
        """,
        "{file}:7:12: error: strategy 'header-only' (from defaults) is for http:// URLs, but scenario 'a' requests https://; use 'trust-override' or 'sni-resolve'"
    ),
    MalformedPlan("trust-override with an http URL", """
        version: 1
        scenarios:
          - name: a
            strategy: [sni-resolve, trust-override]
            request:
              url: http://api.example.com/
        """,
        "{file}:4:29: error: strategy 'trust-override' is for https:// URLs, but scenario 'a' requests http://; use 'header-only' or 'sni-resolve'"
    ),
    MalformedPlan("undefined variable with a suggestion", """
        version: 1
        vars:
          region: cn-north
        scenarios:
          - name: a
            request:
              url: http://${regoin}.example.com/
        """, "{file}:7:12: error: undefined variable 'regoin'; did you mean 'region'?"),
    MalformedPlan("undefined variable", """
        version: 1
        scenarios:
          - name: a
            request:
              url: "http://api.example.com/${path}"
        """, "{file}:5:12: error: undefined variable 'path'; define it under 'vars' or pass --var path=VALUE"),
    MalformedPlan("unset environment variable", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              headers: {X-Token: "${env:MISSING_TOKEN}"}
        """, "{file}:6:26: error: environment variable 'MISSING_TOKEN' is not set"),
    MalformedPlan("a var that uses another var", """
        version: 1
        vars:
          host: api.example.com
          url: http://${host}/
        scenarios:
          - name: a
            request: {url: "${url}"}
        """,
        "{file}:4:8: error: a variable cannot use another variable ('${host}'); vars may only use ${env:…} and ${secret:…}"
    ),
    MalformedPlan("duplicate scenario names", """
        version: 1
        scenarios:
          - name: login
            request: {url: http://api.example.com/}
          - name: login
            request: {url: http://api.example.com/}
        """, "{file}:5:11: error: duplicate scenario name 'login' (first at 3:11)"),
    MalformedPlan("unknown domain map", """
        version: 1
        domains:
          builtin:
            static: {api.example.com: 203.0.113.10}
        scenarios:
          - name: a
            domains: buildin
            request: {url: http://api.example.com/}
        """, "{file}:7:14: error: unknown domain map 'buildin' in scenario 'a'; did you mean 'builtin'?"),
    MalformedPlan("wrong version", """
        version: 2
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:1:10: error: unsupported plan version 2; this runner reads version 1"),
    MalformedPlan("missing version", """
        # the version line is missing
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:2:1: error: missing required key 'version' at top level"),
    MalformedPlan("quoted version", """
        version: "1"
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:1:10: error: expected an integer for 'version' at top level, got the string '1'; write it without quotes"),
    MalformedPlan("missing url", """
        version: 1
        scenarios:
          - name: a
            request:
              method: GET
        """, "{file}:4:5: error: missing required key 'url' in request of scenario 'a'"),
    MalformedPlan("URL that is not http", """
        version: 1
        scenarios:
          - name: a
            request: {url: "ftp://files.example.com/x"}
        """,
        "{file}:4:20: error: expected an absolute http:// or https:// URL for 'url' in request of scenario 'a', got 'ftp://files.example.com/x'"
    ),
    MalformedPlan("status out of range", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              status: 700
        """,
        "{file}:6:15: error: expected a status code (100-599), a list of codes, or a class such as '2xx' for 'status' in expect of scenario 'a', got '700'"
    ),
    MalformedPlan("regular expression that does not compile", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              headers:
                X-Request-Id: {matches: "[a-"}
        """,
        "{file}:7:33: error: invalid regular expression '[a-' for 'matches' in the matcher for header 'X-Request-Id' of scenario 'a': expected ']'"
    ),
    MalformedPlan("JSON path that does not parse", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              body:
                json: {"$.user[id]": 42}
        """,
        "{file}:7:16: error: invalid JSON path '$.user[id]' in expect.body.json of scenario 'a': expected an array index or a quoted name inside '[…]' at position 8"
    ),
    MalformedPlan("[*] in expect.body.json, which compares one value", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              body:
                json: {"$.ips[*]": 42}
        """,
        "{file}:7:16: error: invalid JSON path '$.ips[*]' in expect.body.json of scenario 'a': '[*]' at position 6 selects every element, and one value is compared here; give an index such as [0]"
    ),
    MalformedPlan("JSON path in json_exists that does not parse, at its own item", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              body:
                json_exists: [$.token, "$.user[id]"]
        """,
        "{file}:7:32: error: invalid JSON path '$.user[id]' in expect.body.json_exists of scenario 'a': expected an array index or a quoted name inside '[…]' at position 8"
    ),
    MalformedPlan("json_exists with no path", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              body:
                json_exists: []
        """,
        "{file}:7:22: error: expected at least one JSON path for 'json_exists' in expect.body of scenario 'a', got an empty list"
    ),
    MalformedPlan("sha256 that is not 64 hex digits", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              body: {sha256: abc123}
        """, "{file}:6:22: error: expected 64 hexadecimal digits for 'sha256' in expect.body of scenario 'a', got 'abc123'"),
    MalformedPlan("absent: false", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
            expect:
              headers:
                Server: {absent: false}
        """,
        "{file}:7:26: error: 'absent' only takes true in the matcher for header 'Server' of scenario 'a'; to require the header, use equals, contains or matches"
    ),
    MalformedPlan("two body kinds", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              body: hello
              body_base64: aGVsbG8=
        """,
        "{file}:7:7: error: only one of 'body', 'body_base64' and 'body_file' may be given in request of scenario 'a'; found 'body' and 'body_base64'"
    ),
    MalformedPlan("missing body_file", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              body_file: payloads/photo.jpg
        """, "{file}:6:18: error: body_file 'payloads/photo.jpg' does not exist (looked for '{dir}/payloads/photo.jpg')"),
    MalformedPlan("body_file that is a directory", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              body_file: payloads
        """, files: ["payloads/inside.bin"],
        "{file}:6:18: error: body_file 'payloads' is not a regular file (looked for '{dir}/payloads')"),
    MalformedPlan("missing ca", """
        version: 1
        defaults:
          ca: certs/ca.pem
        scenarios:
          - name: a
            request: {url: https://api.example.com/}
        """, "{file}:3:7: error: ca file 'certs/ca.pem' does not exist (looked for '{dir}/certs/ca.pem')"),
    MalformedPlan("bad base64", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              body_base64: "not base64!"
        """, "{file}:6:20: error: expected base64 data for 'body_base64' in request of scenario 'a', got 'not base64!'"),
    MalformedPlan("unknown strategy", """
        version: 1
        scenarios:
          - name: a
            strategy: sni-reslove
            request: {url: https://api.example.com/}
        """, "{file}:4:15: error: unknown strategy 'sni-reslove' in scenario 'a'; did you mean 'sni-resolve'?"),
    MalformedPlan("duplicate strategy in a list", """
        version: 1
        scenarios:
          - name: a
            strategy: [sni-resolve, system, sni-resolve]
            request: {url: https://api.example.com/}
        """, "{file}:4:37: error: duplicate strategy 'sni-resolve' in scenario 'a' (first at 4:16)"),
    MalformedPlan("mapping where a sequence-free mapping is wrong", """
        version: 1
        scenarios:
          - name: a
            request:
              - url: http://api.example.com/
        """, "{file}:5:7: error: expected a mapping for 'request' in scenario 'a', got a sequence"),
    MalformedPlan("yes is not a boolean", """
        version: 1
        defaults:
          follow_redirects: yes
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:3:21: error: expected true or false for 'follow_redirects' in defaults, got 'yes'"),
    MalformedPlan("size with an unknown unit", """
        version: 1
        defaults:
          max_body: 1MB
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:3:13: error: expected a size such as 1048576 or '1MiB' (units B, KiB, MiB, GiB) for 'max_body' in defaults, got '1MB'"
    ),
    MalformedPlan("retries above the bound", """
        version: 1
        defaults:
          retries: 50
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:3:12: error: expected an integer from 0 to 10 for 'retries' in defaults, got '50'"),
    MalformedPlan("negative retries in a scenario", """
        version: 1
        scenarios:
          - name: a
            retries: -1
            request: {url: http://api.example.com/}
        """, "{file}:4:14: error: expected an integer from 0 to 10 for 'retries' in scenario 'a', got '-1'"),
    MalformedPlan("no scenarios", """
        version: 1
        scenarios: []
        """, "{file}:2:12: error: expected at least one scenario for 'scenarios' at top level, got an empty list"),
    MalformedPlan("static and httpdns in one map", """
        version: 1
        domains:
          mixed:
            static: {api.example.com: 203.0.113.10}
            httpdns: {format: dnspod, url: "http://119.29.29.29/d?dn={host}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:5:5: error: domain map 'mixed' has both 'static' and 'httpdns'; give exactly one"),
    MalformedPlan("httpdns URL without {host}", """
        version: 1
        domains:
          tencent:
            httpdns: {format: dnspod, url: "http://119.29.29.29/d"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:4:36: error: expected a URL with '{host}' where the host name goes for 'url' in httpdns of domain map 'tencent', got 'http://119.29.29.29/d'"
    ),
    MalformedPlan("an unknown auth scheme", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sig, secret: "${secret:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:22: error: expected one of 'alibaba-sign', 'volcengine-sign', 'dnspod-des', 'dnspod-aes', 'alibaba-v2' for 'scheme' in httpdns.auth of domain map 'ali', got 'alibaba-sig'; did you mean 'alibaba-sign'?"
    ),
    MalformedPlan("an auth scheme for another format", """
        version: 1
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://119.29.29.98/d?dn={host}&id=1"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:22: error: scheme 'alibaba-sign' in httpdns.auth of domain map 'tencent' needs 'format: alibaba', but the map's format is 'dnspod'"
    ),
    MalformedPlan("volcengine-sign needs format json", """
        version: 1
        domains:
          volc:
            httpdns:
              format: doh-json
              url: "https://httpdns.volcengineapi.com/resolve?domain={host}&account_id=1"
              auth: {scheme: volcengine-sign, secret: "${secret:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:22: error: scheme 'volcengine-sign' in httpdns.auth of domain map 'volc' needs 'format: json', but the map's format is 'doh-json'"
    ),
    MalformedPlan("an unknown SDK profile", """
        version: 1
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://119.29.29.98/d?dn={host}&id=1"
              sdk: {profile: tencent-andriod}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:22: error: expected one of 'alibaba-android', 'alibaba-ios', 'tencent-android', 'tencent-ios', 'volcengine' for 'profile' in httpdns.sdk of domain map 'tencent', got 'tencent-andriod'; did you mean 'tencent-android'?"
    ),
    MalformedPlan("an SDK's persisted window over a year", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/d?host={host}"
              sdk: {profile: alibaba-android, cache: {persist: true, discard_after: 400d}}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:77: error: expected a duration of at most a year (365d) for 'discard_after' in httpdns.sdk.cache of domain map 'ali', got '400d': the SDKs keep a persisted answer at most a year past its TTL"
    ),
    MalformedPlan("retain: sdk on a map without sdk", """
        version: 1
        domains:
          ali:
            httpdns: {format: alibaba, url: "http://203.107.1.1/1/d?host={host}", retain: sdk}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:4:83: error: 'retain: sdk' in httpdns of domain map 'ali' takes its window from the map's 'sdk:', which it does not have; add e.g. sdk: {profile: alibaba-android}, or give a duration such as 24h"
    ),
    MalformedPlan("doh url with {host}", """
        version: 1
        domains:
          m:
            httpdns:
              format: doh
              url: "https://dns.example/dns-query?name={host}"
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:6:12: error: expected a URL without '{host}' for 'url' in httpdns of domain map 'm' (with 'format: doh' the name travels inside the DNS message), got 'https://dns.example/dns-query?name={host}'"
    ),
    MalformedPlan("json without answer", """
        version: 1
        domains:
          m:
            httpdns:
              format: json
              url: "https://h.example/r?n={host}"
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:4:5: error: missing required key 'answer' in httpdns of domain map 'm': 'format: json' needs the JSONPath of the addresses, e.g. answer: {ips: \"$.data.ips[*]\"}"
    ),
    MalformedPlan("json answer without ips", """
        version: 1
        domains:
          m:
            httpdns:
              format: json
              url: "https://h.example/r?n={host}"
              answer: {ttl: "$.ttl"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:7: error: missing required key 'ips' in httpdns.answer of domain map 'm': the JSONPath of the addresses, e.g. \"$.data.ips[*]\""
    ),
    MalformedPlan("method on a format other than doh", """
        version: 1
        domains:
          m:
            httpdns:
              format: dnspod
              url: "http://119.29.29.29/d?dn={host}"
              method: POST
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:7: error: 'method' in httpdns of domain map 'm' applies to 'format: doh' only (GET or POST); format 'dnspod' always asks with GET"
    ),
    MalformedPlan("answer on a format other than json", """
        version: 1
        domains:
          m:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/d?host={host}"
              answer: {ips: "$.ips"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:7: error: 'answer' in httpdns of domain map 'm' applies to 'format: json' only; format 'alibaba' has its own answer shape"
    ),
    MalformedPlan("doh method that is not GET or POST", """
        version: 1
        domains:
          m:
            httpdns:
              format: doh
              url: "https://dns.example/dns-query"
              method: PUT
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:15: error: expected one of 'GET', 'POST' for 'method' in httpdns of domain map 'm', got 'PUT'"
    ),
    MalformedPlan("service_ips entry that is not an IP", """
        version: 1
        domains:
          m:
            httpdns:
              format: doh
              url: "https://dns.example/dns-query"
              service_ips: [223.5.5.5, dns.example]
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:32: error: 'dns.example' is not an IP address ('service_ips' in httpdns of domain map 'm')"
    ),
    MalformedPlan("service_ips listing an address twice", """
        version: 1
        domains:
          m:
            httpdns:
              format: doh
              url: "https://dns.example/dns-query"
              service_ips: [223.5.5.5, 223.5.5.5]
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:32: error: '223.5.5.5' is listed twice in 'service_ips' in httpdns of domain map 'm'"
    ),
    MalformedPlan("empty service_ips", """
        version: 1
        domains:
          m:
            httpdns:
              format: doh
              url: "https://dns.example/dns-query"
              service_ips: []
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:20: error: expected at least one IP address for 'service_ips' in httpdns of domain map 'm', got an empty list"
    ),
    MalformedPlan("json answer path without $", """
        version: 1
        domains:
          m:
            httpdns:
              format: json
              url: "https://h.example/r?n={host}"
              answer: {ips: "data.ips"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:21: error: invalid JSON path 'data.ips' for 'ips' in httpdns.answer of domain map 'm': a path starts with '$' (the document root), as in '$.user.id'"
    ),
    MalformedPlan("answer key written directly in httpdns", """
        version: 1
        domains:
          m:
            httpdns:
              format: json
              url: "https://h.example/r?n={host}"
              answer: {ips: "$.ips"}
              ttl: "$.ttl"
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:8:7: error: unknown key 'ttl' in httpdns of domain map 'm'; 'ttl' is an answer key of 'format: json': move it under 'answer:' (line 7)"
    ),
    MalformedPlan("auth without its scheme", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {secret: "${secret:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:7: error: missing required key 'scheme' in httpdns.auth of domain map 'ali'"
    ),
    MalformedPlan("a signing scheme without its secret", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, valid_for: 5m}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:7: error: missing required key 'secret' in httpdns.auth of domain map 'ali'"
    ),
    MalformedPlan("a cipher given a secret instead of a key", """
        version: 1
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://119.29.29.98/d?dn={host}&id=1"
              auth: {scheme: dnspod-aes, secret: "${secret:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:34: error: scheme 'dnspod-aes' takes 'key', not 'secret' in httpdns.auth of domain map 'tencent'"
    ),
    MalformedPlan("an auth secret written in the plan", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: IAmASecret}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:44: error: expected '${secret:NAME}' for 'secret' in httpdns.auth of domain map 'ali' (a credential comes from the environment and is masked in all output), got a literal (not shown)"
    ),
    MalformedPlan("an auth key from ${env:…}", """
        version: 1
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://119.29.29.98/d?dn={host}&id=1"
              auth: {scheme: dnspod-des, key: "${env:HOME}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:39: error: expected '${secret:NAME}' for 'key' in httpdns.auth of domain map 'tencent' (a credential comes from the environment and is masked in all output), got a value that is not exactly one '${secret:…}' reference (not shown)"
    ),
    MalformedPlan("auth valid_for that is not a duration", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}", valid_for: soon}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:73: error: expected a duration with a unit such as '3s' or '250ms' for 'valid_for' in httpdns.auth of domain map 'ali', got 'soon'"
    ),
    MalformedPlan("auth valid_for of zero", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}", valid_for: 0s}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:73: error: expected a duration greater than zero for 'valid_for' in httpdns.auth of domain map 'ali', got '0s'"
    ),
    MalformedPlan("auth valid_for over a day", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}", valid_for: 1441m}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:73: error: expected a duration of at most 24 hours (1440m) for 'valid_for' in httpdns.auth of domain map 'ali', got '1441m'"
    ),
    MalformedPlan("auth valid_for with a cipher", """
        version: 1
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://119.29.29.98/d?dn={host}&id=1"
              auth: {scheme: dnspod-aes, key: "${secret:HOME}", valid_for: 10m}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:57: error: 'valid_for' does not apply to scheme 'dnspod-aes' in httpdns.auth of domain map 'tencent': its queries are encrypted, not signed with an expiry time; remove it"
    ),
    MalformedPlan("an unknown key in auth", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}", expires: 10m}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:62: error: unknown key 'expires' in httpdns.auth of domain map 'ali'; expected one of scheme, secret, key, valid_for, encrypt"
    ),
    MalformedPlan("alibaba-v2 without auth", """
        version: 1
        domains:
          ali:
            httpdns: {format: alibaba-v2, url: "https://203.107.1.1/v2/d?id=139450&dn={host}"}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:4:5: error: missing required key 'auth' in httpdns of domain map 'ali': format 'alibaba-v2' signs every query, e.g. auth: {scheme: alibaba-v2, secret: \"${secret:ALIBABA_SECRET}\"}"
    ),
    MalformedPlan("encrypt on another scheme", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}", encrypt: aes-gcm}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:7:62: error: 'encrypt' applies to scheme 'alibaba-v2' only, not 'alibaba-sign' in httpdns.auth of domain map 'ali'"
    ),
    MalformedPlan("an auth key written directly in httpdns", """
        version: 1
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://203.107.1.1/1/sign_d?host={host}"
              auth: {scheme: alibaba-sign, secret: "${secret:HOME}"}
              valid_for: 5m
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:8:7: error: unknown key 'valid_for' in httpdns of domain map 'ali'; 'valid_for' is an auth key: move it under 'auth:' (line 7)"
    ),
    MalformedPlan("a map called system", """
        version: 1
        domains:
          system:
            static: {api.example.com: 203.0.113.10}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:3:3: error: 'system' is the implicit domain map (the machine's resolver) and cannot be declared; choose another name"
    ),
    MalformedPlan("pin not base64", """
        version: 1
        scenarios:
          - name: a
            expect: {certificate: {pins: ["sha256/not base64!"]}}
            request: {url: https://api.example.com/}
        """, "{file}:4:35: error: expected a pin 'sha256/' followed by the base64 of a SHA-256 (32 bytes) of a SubjectPublicKeyInfo for 'pins' in expect.certificate of scenario 'a', got 'sha256/not base64!'"),
    MalformedPlan("pin of 20 bytes", """
        version: 1
        scenarios:
          - name: a
            expect: {certificate: {pins: ["sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAA="]}}
            request: {url: https://api.example.com/}
        """, "{file}:4:35: error: expected a pin 'sha256/' followed by the base64 of a SHA-256 (32 bytes) of a SubjectPublicKeyInfo for 'pins' in expect.certificate of scenario 'a', got 'sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAA='"),
    MalformedPlan("unknown tls profile", """
        version: 1
        scenarios:
          - name: a
            tls: {profile: ios-ast}
            request: {url: https://api.example.com/}
        """, "{file}:4:20: error: expected one of 'ios-ats' for 'profile' in tls of scenario 'a', got 'ios-ast'; did you mean 'ios-ats'?"),
    MalformedPlan("tls version outside 1.0-1.3", """
        version: 1
        scenarios:
          - name: a
            tls: {min_version: "1.4"}
            request: {url: https://api.example.com/}
        """, "{file}:4:24: error: expected a TLS version '1.0', '1.1', '1.2' or '1.3' for 'min_version' in tls of scenario 'a', got '1.4'"),
    MalformedPlan("unknown cipher", """
        version: 1
        scenarios:
          - name: a
            tls: {ciphers: [ECDHE-RSA-AES128-GCM-SHA257]}
            request: {url: https://api.example.com/}
        """, "{file}:4:21: error: unknown cipher 'ECDHE-RSA-AES128-GCM-SHA257' for 'ciphers' in tls of scenario 'a'; did you mean 'ECDHE-RSA-AES128-GCM-SHA256'?"),
    MalformedPlan("a cipher list is not a cipher", """
        version: 1
        scenarios:
          - name: a
            tls: {ciphers: ["HIGH:!aNULL"]}
            request: {url: https://api.example.com/}
        """, "{file}:4:21: error: unknown cipher 'HIGH:!aNULL' for 'ciphers' in tls of scenario 'a' (OpenSSL's name, as `openssl ciphers -v` lists them)"),
    MalformedPlan("unknown curve", """
        version: 1
        scenarios:
          - name: a
            tls: {curves: [P-255]}
            request: {url: https://api.example.com/}
        """, "{file}:4:20: error: unknown curve 'P-255' for 'curves' in tls of scenario 'a'; did you mean 'P-256'?"),
    MalformedPlan("max_version below the profile's minimum", """
        version: 1
        scenarios:
          - name: a
            tls: {profile: ios-ats, max_version: "1.1"}
            request: {url: https://api.example.com/}
        """, "{file}:4:42: error: max_version 1.1 is below min_version 1.2 (from the profile) for scenario 'a'"),
    MalformedPlan("expect.tls version outside 1.0-1.3", """
        version: 1
        scenarios:
          - name: a
            expect: {tls: {version: "1.4"}}
            request: {url: https://api.example.com/}
        """, "{file}:4:29: error: expected a TLS version '1.0', '1.1', '1.2' or '1.3' for 'version' in expect.tls of scenario 'a', got '1.4'"),
    MalformedPlan("fallback cycle", """
        version: 1
        domains:
          one:
            httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}", fallback: two}
          two:
            httpdns: {format: alibaba, url: "http://192.0.2.2/d?host={host}", fallback: one}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """, "{file}:4:78: error: fallback cycle between domain maps: 'one' → 'two' → 'one'"),
    MalformedPlan("header value with CR/LF", """
        version: 1
        scenarios:
          - name: a
            request:
              url: http://api.example.com/
              headers:
                X-Evil: "a\\r\\nInjected: 1"
        """, "{file}:7:17: error: the value of header 'X-Evil' in request.headers of scenario 'a' must not contain CR, LF or NUL"),
    MalformedPlan("header name that is not a token", """
        version: 1
        defaults:
          headers: {"User Agent": runner}
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        """,
        "{file}:3:13: error: invalid header name 'User Agent' in headers of defaults; a header name is a token of letters, digits and !#$%&'*+-.^_`|~"
    ),
    MalformedPlan("unsupported tag", """
        version: 1
        scenarios:
          - name: !custom a
            request: {url: http://api.example.com/}
        """, "{file}:3:11: error: unsupported YAML tag '!custom'; plans use plain YAML values"),
    MalformedPlan("empty file", "# nothing here yet\n\n", "{file}:1:1: error: plan is empty"),
    MalformedPlan("zero-byte file", "", "{file}:1:1: error: plan is empty"),
    MalformedPlan("top level is a list", "- version: 1\n", "{file}:1:1: error: expected a mapping with 'version' and 'scenarios' at top level, got a sequence"),
    MalformedPlan(
        "binary garbage with NUL bytes", bytes: Array("version: 1\nscen".utf8) + [0x00, 0x01, 0x02, 0xFF, 0x00],
        "{file}:2:5: error: plan contains a NUL byte; this looks like a binary file, not YAML text"),
    MalformedPlan(
        "invalid UTF-8", bytes: Array("version: 1\nname: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8),
        "{file}:2:10: error: plan is not valid UTF-8 text (byte 0xC3)"),
    MalformedPlan(
        "control character", bytes: Array("version: 1\nname: a\u{7}b\n".utf8),
        "{file}:2:8: error: plan contains a control character (0x07); this looks like a binary file, not YAML text"),
    MalformedPlan("unterminated quote", """
        version: 1
        scenarios:
          - name: "login
            request: {url: http://api.example.com/}
        """, "{file}:3:11: error: unterminated quoted string: no closing quote before the end of the file"),
    MalformedPlan("tab indentation", "version: 1\nscenarios:\n  - name: a\n    request:\n\turl: http://api.example.com/\n",
        "{file}:5:1: error: tab character where YAML expects spaces; indent with spaces, not tabs"),
    MalformedPlan("broken flow mapping", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/
          - name: b
        """, "{file}:5:9: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 4:14)"),
    MalformedPlan("multiple documents", """
        version: 1
        scenarios:
          - name: a
            request: {url: http://api.example.com/}
        ---
        version: 1
        """, "{file}:5:1: error: a plan file holds one YAML document; '---' here starts a second one"),
    MalformedPlan("alias bomb", aliasBomb,
        "{file}:7:8: error: aliases expand to more than 1000000 nodes; refusing what looks like an alias bomb"),
    MalformedPlan("undefined alias", """
        version: 1
        defaults:
          headers: *common
        scenarios: []
        """, "{file}:3:12: error: undefined alias '*common'"),
    MalformedPlan("deep nesting", "version: 1\nvars: " + String(repeating: "[", count: 5000) + "\n",
        "{file}:2:134: error: nesting deeper than 128 levels"),
]
