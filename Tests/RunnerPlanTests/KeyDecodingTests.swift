import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan
import RunnerVocabulary

/// Every key of every section lands in its own field: one row per (section, key), each writing
/// the key with a distinctive value and checking the field that must hold it. A key added to a
/// section needs a row here (the coverage test names the missing ones).
@Suite("Every key is decoded into its own field")
struct KeyDecodingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var section: PlanSection
        var key: String
        /// The whole plan.
        var yaml: String
        var check: @Sendable (Plan) -> Bool

        var testDescription: String { "\(section.rawValue).\(key)" }
    }

    /// A plan with one scenario `s`; each piece is spliced in as written.
    static func plan(
        top: String = "", scenario: String = "", request: String = "", expect: String = "", version: Int = 1
    ) -> String {
        """
        version: \(version)
        \(top)
        scenarios:
          - name: s
            \(scenario)
            request: {url: 'https://api.example.com/p', \(request)}
            expect: {\(expect)}

        """
    }

    static let staticMap = "domains: {m: {static: {api.example.com: [192.0.2.9]}}}"

    /// A plan whose one scenario makes the gRPC call `grpc`, with `expect.grpc` when given.
    static func grpcPlan(_ grpc: String, expect: String? = nil) -> String {
        "version: 1\nscenarios:\n  - name: s\n    request: {url: 'https://api.example.com', grpc: \(grpc)}\n"
            + (expect.map { "    expect: {grpc: \($0)}\n" } ?? "")
    }

    /// `domains:` with `ali`, an HTTPDNS map asked as every client (what `expect.edges` checks), and `extra` maps.
    static func clientsMap(extra: String = "") -> String {
        "domains: {ali: {httpdns: {format: alibaba, url: 'http://192.0.2.1/d?host={host}&ip={client}', clients: all}}"
            + (extra.isEmpty ? "" : ", " + extra) + "}"
    }

    /// One setting: how it is written and what it must set; used for `defaults` and `scenario`.
    static let settings: [(key: String, value: String, check: @Sendable (Scenario) -> Bool)] = [
        ("timeout", "7s", { $0.settings.timeout == .seconds(7) }),
        ("connect_timeout", "2s", { $0.settings.connectTimeout == .seconds(2) }),
        ("http", "'1.1'", { $0.settings.http == .http1_1 }),
        ("follow_redirects", "false", { $0.settings.followRedirects == false }),
        ("max_redirects", "4", { $0.settings.maxRedirects == 4 }),
        ("ca", "certs/ca.pem", { $0.settings.caFile?.hasSuffix("/certs/ca.pem") == true }),
        ("insecure", "true", { $0.settings.insecure }),
        ("max_body", "2KiB", { $0.settings.maxBody == 2048 }),
        ("retries", "3", { $0.settings.retries == 3 }),
        ("strategy", "sni-resolve", { $0.strategies == [.sniResolve] }),
        ("ips", "all", { $0.ips == .all }),
        ("ip_version", "6", { $0.ipVersion == .v6 }),
        ("domains", "m", { $0.domainMap == "m" }),
        ("headers", "{X-Set: v}", { $0.request.headers.contains(Header(name: "X-Set", value: "v")) }),
        ("resolver", "'[2001:db8::53]:5353'", { $0.settings.resolver.description == "[2001:db8::53]:5353" }),
        ("tls", "{max_version: '1.2'}", { $0.settings.tls.maxVersion == .v1_2 }),
        ("app", "a", { $0.apps.map(\.name) == ["a"] }),
    ]

    /// A pin (32 bytes of base64) in OkHttp's spelling.
    static let okhttpPin = "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
    /// `apps:` with app `a` on OkHttp, for the `app` setting's rows.
    static let appsTop = "apps: {a: {okhttp: {pins: {api.example.com: [\(okhttpPin)]}}}}"
    /// A Network Security Config whose base-config trusts `@raw/ca` (app/raw/ca.pem).
    static let networkSecurityConfig = """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <base-config cleartextTrafficPermitted="true"><trust-anchors><certificates src="@raw/ca"/></trust-anchors></base-config>
        </network-security-config>
        """
    static let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>
        """
    /// A certificate to stand for the app's `@raw/ca`: the first of this machine's CA store.
    static func systemCertificatePEM() throws -> String {
        let bundle = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let end = "-----END CERTIFICATE-----"
        guard let range = bundle.range(of: end) else { return bundle }
        return String(bundle[..<range.upperBound]) + "\n"
    }

    static func app(_ check: @escaping @Sendable (AppDefinition) -> Bool) -> @Sendable (Plan) -> Bool {
        { plan in plan.apps.first.map(check) ?? false }
    }

    static func scenario(_ check: @escaping @Sendable (Scenario) -> Bool) -> @Sendable (Plan) -> Bool {
        { plan in plan.scenarios.first.map(check) ?? false }
    }

    static func expectation(_ check: @escaping @Sendable (Expectations) -> Bool) -> @Sendable (Plan) -> Bool {
        scenario { check($0.expect) }
    }

    static func httpdns(_ check: @escaping @Sendable (HTTPDNSSpec) -> Bool) -> @Sendable (Plan) -> Bool {
        { plan in
            guard case .httpdns(let spec) = plan.domainMaps.first?.source else { return false }
            return check(spec)
        }
    }

    static let dohMap = "domains: {m: {httpdns: {format: doh, url: 'https://dns.example/dns-query', %@}}}"

    static func jsonMap(_ answer: String) -> String {
        "domains: {m: {httpdns: {format: json, url: 'https://dns.example/r?n={host}', answer: {\(answer)}}}}"
    }

    static func path(_ text: String, _ components: [JSONPath.Component]) -> JSONPath {
        JSONPath(components: components, text: text)
    }

    static let httpdnsMap = "domains: {m: {httpdns: {format: dnspod, url: 'http://192.0.2.1/d?dn={host}', %@}}}"

    /// An alibaba map signing with `alibaba-sign`; `rest` follows the scheme inside `auth`.
    static func alibabaAuthMap(_ rest: String) -> String {
        "domains: {m: {httpdns: {format: alibaba, url: 'http://192.0.2.1/1/sign_d?host={host}', auth: {scheme: alibaba-sign\(rest)}}}}"
    }

    /// What the auth rows' `${secret:…}` read.
    static let environment = ["AUTH_SECRET": "IAmASecret", "AUTH_KEY": "dnspodpass", "AUTH_HEX": "00112233445566778899aabbccddeeff"]

    static let rows: [Row] = {
        var rows: [Row] = [
            Row(section: .top, key: "version", yaml: plan(), check: { $0.scenarios.count == 1 }),
            Row(section: .top, key: "name", yaml: plan(top: "name: zeta"), check: { $0.name == "zeta" }),
            Row(section: .top, key: "defaults", yaml: plan(top: "defaults: {max_redirects: 4}"),
                check: scenario { $0.settings.maxRedirects == 4 }),
            Row(section: .top, key: "vars", yaml: plan(top: "vars: {v: vv}", request: "headers: {X-V: '${v}'}"),
                check: scenario { $0.request.headers.contains(Header(name: "X-V", value: "vv")) }),
            Row(section: .top, key: "domains", yaml: plan(top: staticMap), check: { $0.domainMaps.map(\.name) == ["m"] }),
            Row(section: .top, key: "clients", yaml: plan(top: "clients: {gd: {ip: 120.196.0.1}}"), check: { $0.clients.map(\.name) == ["gd"] }),
            Row(section: .client, key: "ip", yaml: plan(top: "clients: {gd: {ip: 120.196.0.7}}"),
                check: { $0.clients.first?.address.text == "120.196.0.7" && $0.clients.first?.subnet.description == "120.196.0.0/24" }),
            Row(section: .client, key: "subnet", yaml: plan(top: "clients: {gd: {subnet: 120.196.0.0/16}}"),
                check: { $0.clients.first?.subnet.description == "120.196.0.0/16" && $0.clients.first?.address.text == "120.196.0.0" }),
            Row(section: .client, key: "labels", yaml: plan(top: "clients: {gd: {ip: 120.196.0.1, labels: {isp: cm}}}"),
                check: { $0.clients.first?.labels == [ClientPopulation.Label(name: "isp", value: "cm")] }),
            Row(section: .top, key: "scenarios", yaml: plan(), check: { $0.scenarios.map(\.name) == ["s"] }),
            Row(section: .top, key: "apps", yaml: plan(top: appsTop), check: { $0.apps.map(\.name) == ["a"] }),
            Row(section: .app, key: "android", yaml: plan(top: "apps: {a: {android: {}}}"),
                check: app { $0.android?.targetSDK == 34 && $0.android?.file == nil && $0.ios == nil && $0.okhttp == nil }),
            Row(section: .app, key: "ios", yaml: plan(top: "apps: {a: {ios: {info_plist: app/Info.plist}}}"),
                check: app { $0.ios?.version == 17 && $0.ios?.file.hasSuffix("/app/Info.plist") == true && $0.android == nil }),
            Row(section: .app, key: "okhttp", yaml: plan(top: appsTop),
                check: app { $0.okhttp?.patterns.map(\.pattern) == ["api.example.com"] && $0.android == nil }),
            Row(section: .app, key: "pin_warn", yaml: plan(top: "apps: {a: {android: {}, pin_warn: 9d}}"),
                check: app { $0.pinWarning == .seconds(9 * 86_400) }),
            Row(section: .appAndroid, key: "network_security_config",
                yaml: plan(top: "apps: {a: {android: {network_security_config: app/nsc.xml, raw: app/raw}}}"),
                check: app { $0.android?.file?.hasSuffix("/app/nsc.xml") == true && $0.android?.config.baseConfig != nil }),
            Row(section: .appAndroid, key: "target_sdk", yaml: plan(top: "apps: {a: {android: {target_sdk: 27}}}"),
                check: app { $0.android?.targetSDK == 27 }),
            Row(section: .appAndroid, key: "debuggable", yaml: plan(top: "apps: {a: {android: {debuggable: true}}}"),
                check: app { $0.android?.debuggable == true }),
            Row(section: .appAndroid, key: "raw",
                yaml: plan(top: "apps: {a: {android: {network_security_config: app/nsc.xml, raw: app/raw}}}"),
                check: app { $0.android?.config.baseConfig?.trustAnchors?.map(\.source) == ["@raw/ca"] && $0.android?.rawAnchorKeys["@raw/ca"]?.count == 1 }),
            Row(section: .appIOS, key: "info_plist", yaml: plan(top: "apps: {a: {ios: {info_plist: app/Info.plist}}}"),
                check: app { $0.ios?.settings.allowsArbitraryLoads == true }),
            Row(section: .appIOS, key: "version", yaml: plan(top: "apps: {a: {ios: {info_plist: app/Info.plist, version: 16}}}"),
                check: app { $0.ios?.version == 16 }),
            Row(section: .appOkHttp, key: "pins", yaml: plan(top: appsTop),
                check: app { $0.okhttp?.patterns.first?.sha256Pins == ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="] }),

            Row(section: .scenario, key: "name", yaml: plan(), check: scenario { $0.name == "s" }),
            Row(section: .scenario, key: "tags", yaml: plan(scenario: "tags: [t1, t2]"), check: scenario { $0.tags == ["t1", "t2"] }),
            Row(section: .scenario, key: "request", yaml: plan(), check: scenario { $0.request.url.pathAndQuery == "/p" }),
            Row(section: .scenario, key: "expect", yaml: plan(expect: "status: 201"), check: scenario { $0.expect.status == .codes([201]) }),
            Row(section: .scenario, key: "capture", yaml: plan(scenario: "capture: {t: {header: X-T}}"),
                check: scenario { $0.captures.map(\.name) == ["t"] }),
            Row(section: .scenario, key: "after",
                yaml: plan(scenario: "after: first") + "  - {name: first, request: {url: 'https://api.example.com/'}}\n",
                check: scenario { $0.after.map(\.name) == ["first"] }),
            Row(section: .expect, key: "dns", yaml: plan(scenario: "strategy: system", expect: "dns: {within: system}"),
                check: scenario { $0.expect.dns == DNSExpectation(within: ["system"]) }),
            Row(section: .dns, key: "within", yaml: plan(scenario: "strategy: system", expect: "dns: {within: [system]}"),
                check: scenario { $0.expect.dns?.within == ["system"] }),
            Row(section: .capture, key: "json", yaml: plan(scenario: "capture: {t: {json: '$.a[2]'}}"),
                check: scenario { $0.captures.first?.source == .json(path("$.a[2]", [.member("a"), .index(2)])) }),
            Row(section: .capture, key: "header", yaml: plan(scenario: "capture: {t: {header: X-T}}"),
                check: scenario { $0.captures.first?.source == .header("X-T") }),
            Row(section: .capture, key: "body", yaml: plan(scenario: "capture: {t: {body: 'id=(\\d+)'}}"),
                check: scenario { $0.captures.first?.source == .body(#"id=(\d+)"#) }),
            Row(section: .capture, key: "secret", yaml: plan(scenario: "capture: {t: {header: X-T, secret: true}}"),
                check: scenario { $0.captures.first?.secret == true }),

            Row(section: .request, key: "method", yaml: plan(request: "method: put"), check: scenario { $0.request.method == "PUT" }),
            Row(section: .request, key: "url", yaml: plan(), check: scenario { $0.request.url.host == "api.example.com" }),
            Row(section: .request, key: "headers", yaml: plan(request: "headers: {X-R: r}"),
                check: scenario { $0.request.headers == [Header(name: "X-R", value: "r")] }),
            Row(section: .request, key: "body", yaml: plan(request: "body: hi"), check: scenario { $0.request.body == .bytes(Data("hi".utf8)) }),
            Row(section: .request, key: "body_base64", yaml: plan(request: "body_base64: aGk="),
                check: scenario { $0.request.body == .bytes(Data("hi".utf8)) }),
            Row(section: .request, key: "body_file", yaml: plan(request: "body_file: certs/ca.pem"),
                check: scenario { if case .file(let path) = $0.request.body { path.hasSuffix("/certs/ca.pem") } else { false } }),
            Row(section: .request, key: "insecure", yaml: plan(request: "insecure: true"), check: scenario { $0.settings.insecure }),

            Row(section: .expect, key: "status", yaml: plan(expect: "status: [201, 202]"), check: expectation { $0.status == .codes([201, 202]) }),
            Row(section: .expect, key: "headers", yaml: plan(expect: "headers: {X-E: v}"),
                check: expectation { $0.headers == [HeaderExpectation(name: "X-E", matcher: .equals("v"))] }),
            Row(section: .expect, key: "body", yaml: plan(expect: "body: {contains: ok}"), check: expectation { $0.body == [.contains("ok")] }),
            Row(section: .expect, key: "certificate", yaml: plan(expect: "certificate: {min_days_left: 5}"),
                check: expectation { $0.certificate?.minDaysLeft == 5 }),
            Row(section: .expect, key: "time", yaml: plan(expect: "time: {total: 1s}"), check: expectation { $0.time.total == .seconds(1) }),
            Row(section: .expect, key: "http_version", yaml: plan(expect: "http_version: '2'"), check: expectation { $0.httpVersion == "2" }),
            Row(section: .expect, key: "redirects", yaml: plan(expect: "redirects: 2"), check: expectation { $0.redirects == 2 }),
            Row(section: .expect, key: "final_url", yaml: plan(expect: "final_url: 'https://api.example.com/end'"),
                check: expectation { $0.finalURL?.pathAndQuery == "/end" }),
            Row(section: .expect, key: "tls", yaml: plan(expect: "tls: {version: '1.3'}"), check: expectation { $0.tls?.version == .v1_3 }),
            Row(section: .tlsExpect, key: "version", yaml: plan(expect: "tls: {version: '1.2'}"),
                check: expectation { $0.tls?.version == .v1_2 }),
            Row(section: .tlsExpect, key: "cipher", yaml: plan(expect: "tls: {cipher: {matches: '^TLS_'}}"),
                check: expectation { $0.tls?.cipher == .matches("^TLS_") }),
            Row(section: .certificate, key: "pins", yaml: plan(expect: "certificate: {pins: 'sha256/\(String(repeating: "A", count: 43))='}"),
                check: expectation { $0.certificate?.pins == [[UInt8](repeating: 0, count: 32)] }),
            Row(section: .tls, key: "min_version", yaml: plan(scenario: "tls: {min_version: '1.1'}"),
                check: scenario { $0.settings.tls.minVersion == .v1_1 }),
            Row(section: .tls, key: "max_version", yaml: plan(scenario: "tls: {max_version: '1.1'}"),
                check: scenario { $0.settings.tls.maxVersion == .v1_1 }),
            Row(section: .tls, key: "ciphers", yaml: plan(scenario: "tls: {ciphers: [AES256-GCM-SHA384]}"),
                check: scenario { $0.settings.tls.ciphers == ["AES256-GCM-SHA384"] }),
            Row(section: .tls, key: "tls13_ciphers", yaml: plan(scenario: "tls: {tls13_ciphers: TLS_AES_256_GCM_SHA384}"),
                check: scenario { $0.settings.tls.tls13Ciphers == ["TLS_AES_256_GCM_SHA384"] }),
            Row(section: .tls, key: "curves", yaml: plan(scenario: "tls: {curves: [X448]}"),
                check: scenario { $0.settings.tls.curves == ["X448"] }),
            Row(section: .tls, key: "profile", yaml: plan(scenario: "tls: {profile: ios-ats}"),
                check: scenario { $0.settings.tls.profile == .iosATS && $0.settings.tls.minVersion == .v1_2 }),
        ]
        for setting in settings {
            let top = setting.key == "app" ? "\(staticMap)\n\(appsTop)" : staticMap
            let defaults = plan(top: "\(top)\ndefaults: {\(setting.key): \(setting.value)}")
            rows.append(Row(section: .defaults, key: setting.key, yaml: defaults, check: scenario(setting.check)))
            let own = plan(top: top, scenario: "\(setting.key): \(setting.value)")
            rows.append(Row(section: .scenario, key: setting.key, yaml: own, check: scenario(setting.check)))
        }
        let headerMatchers: [(String, String, StringMatcher)] = [
            ("equals", "a", .equals("a")), ("contains", "b", .contains("b")), ("matches", "'^c$'", .matches("^c$")),
            ("absent", "true", .absent),
        ]
        for (key, value, matcher) in headerMatchers {
            rows.append(Row(section: .headerMatcher, key: key, yaml: plan(expect: "headers: {X-M: {\(key): \(value)}}"),
                            check: expectation { $0.headers.first?.matcher == matcher }))
            guard key != "absent" else { continue }
            rows.append(Row(section: .valueMatcher, key: key, yaml: plan(expect: "certificate: {issuer: {\(key): \(value)}}"),
                            check: expectation { $0.certificate?.issuer == matcher && $0.certificate?.subject == nil }))
        }
        let sha = String(repeating: "ab", count: 32)
        let bodies: [(String, String, @Sendable (BodyMatcher) -> Bool)] = [
            ("equals", "e", { $0 == .equals("e") }), ("contains", "c", { $0 == .contains("c") }),
            ("matches", "'^m'", { $0 == .matches("^m") }), ("sha256", sha, { $0 == .sha256(sha) }),
            ("json", "{'$.a': 1}", { if case .json(let items) = $0 { items.map(\.path.text) == ["$.a"] } else { false } }),
            ("json_exists", "['$.a', \"$['full name']\"]", {
                $0 == .jsonExists([JSONPath(components: [.member("a")], text: "$.a"),
                                   JSONPath(components: [.member("full name")], text: "$['full name']")])
            }),
        ]
        for (key, value, check) in bodies {
            rows.append(Row(section: .body, key: key, yaml: plan(expect: "body: {\(key): \(value)}"),
                            check: expectation { $0.body.count == 1 && check($0.body[0]) }))
        }
        rows += [
            Row(section: .certificate, key: "min_days_left", yaml: plan(expect: "certificate: {min_days_left: 9}"),
                check: expectation { $0.certificate?.minDaysLeft == 9 && $0.certificate?.issuer == nil && $0.certificate?.subject == nil }),
            Row(section: .certificate, key: "issuer", yaml: plan(expect: "certificate: {issuer: I}"),
                check: expectation { $0.certificate?.issuer == .equals("I") && $0.certificate?.subject == nil }),
            Row(section: .certificate, key: "subject", yaml: plan(expect: "certificate: {subject: S}"),
                check: expectation { $0.certificate?.subject == .equals("S") && $0.certificate?.issuer == nil }),
        ]
        let times: [(String, WritableKeyPath<TimeLimits, Duration?>)] = [
            ("total", \.total), ("connect", \.connect), ("tls", \.tls), ("first_byte", \.firstByte),
        ]
        for (key, path) in times {
            var expected = TimeLimits()
            expected[keyPath: path] = .milliseconds(700)
            rows.append(Row(section: .time, key: key, yaml: plan(expect: "time: {\(key): 700ms}"),
                            check: expectation { [expected] in $0.time == expected }))
        }
        rows += [
            Row(section: .domainMap, key: "static", yaml: plan(top: staticMap), check: { plan in
                guard case .staticList(let entries) = plan.domainMaps.first?.source else { return false }
                return entries.map(\.host) == ["api.example.com"]
            }),
            Row(section: .domainMap, key: "httpdns", yaml: plan(top: httpdnsMap.replacingOccurrences(of: ", %@", with: "")),
                check: httpdns { $0.format == .dnspod }),
            Row(section: .httpdns, key: "format", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "format: dnspod, ", with: "")
                .replacingOccurrences(of: "%@", with: "format: alibaba")), check: httpdns { $0.format == .alibaba }),
            Row(section: .httpdns, key: "url", yaml: plan(top: httpdnsMap.replacingOccurrences(of: ", %@", with: "")),
                check: httpdns { $0.urlTemplate == "http://192.0.2.1/d?dn={host}" }),
            Row(section: .httpdns, key: "method", yaml: plan(top: dohMap.replacingOccurrences(of: "%@", with: "method: POST")),
                check: httpdns { $0.format == .doh(method: .post) }),
            Row(section: .httpdns, key: "service_ips", yaml: plan(top: dohMap.replacingOccurrences(of: "%@", with: "service_ips: [192.0.2.7, '2001:db8::7']")),
                check: httpdns { $0.serviceIPs.map(\.text) == ["192.0.2.7", "2001:db8::7"] }),
            Row(section: .httpdns, key: "answer", yaml: plan(top: jsonMap("ips: '$.a[*]'")),
                check: httpdns { $0.format == .json(JSONAnswerMapping(ips: path("$.a[*]", [.member("a"), .everyElement]))) }),
            Row(section: .httpdnsAnswer, key: "ips", yaml: plan(top: jsonMap("ips: '$.v4'")),
                check: httpdns { $0.format == .json(JSONAnswerMapping(ips: path("$.v4", [.member("v4")]))) }),
            Row(section: .httpdnsAnswer, key: "ipv6", yaml: plan(top: jsonMap("ips: '$.v4', ipv6: '$.v6[*]'")),
                check: httpdns {
                    $0.format == .json(JSONAnswerMapping(
                        ips: path("$.v4", [.member("v4")]), ipv6: path("$.v6[*]", [.member("v6"), .everyElement])))
                }),
            Row(section: .httpdnsAnswer, key: "ttl", yaml: plan(top: jsonMap("ips: '$.v4', ttl: '$.t'")),
                check: httpdns {
                    $0.format == .json(JSONAnswerMapping(ips: path("$.v4", [.member("v4")]), ttl: path("$.t", [.member("t")])))
                }),
            Row(section: .httpdns, key: "timeout", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "timeout: 5s")),
                check: httpdns { $0.timeout == .seconds(5) }),
            Row(section: .httpdns, key: "retain", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "retain: 24h")),
                check: httpdns { $0.retain == .duration(.seconds(86_400)) }),
            Row(section: .httpdns, key: "sdk", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: tencent-ios}")),
                check: httpdns { $0.sdk?.kind == .tencentIOS }),
            Row(section: .httpdnsSDK, key: "profile", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: volcengine}")),
                check: httpdns { $0.sdk == SDKProfile(kind: .volcengine) }),
            Row(section: .httpdnsSDK, key: "rank", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: alibaba-ios, rank: {}}")),
                check: httpdns { $0.sdk?.ranking?.port == 80 }),
            Row(section: .httpdnsSDK, key: "expired", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: tencent-android, expired: 90s}")),
                check: httpdns { $0.sdk?.expiredAnswers == .upTo(.seconds(90)) }),
            Row(section: .httpdnsSDK, key: "cache", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: alibaba-ios, cache: {}}")),
                check: httpdns { $0.sdk?.persistentCache == SDKProfile.PersistentCache(enabled: false, discardAfter: SDKProfile.maximumDiscardAfter) }),
            Row(section: .sdkRank, key: "port", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: alibaba-android, rank: {port: 8443}}")),
                check: httpdns { $0.sdk?.ranking?.port == 8443 }),
            Row(section: .sdkCache, key: "persist", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: alibaba-ios, cache: {persist: true}}")),
                check: httpdns { $0.sdk?.persistentCache.enabled == true }),
            Row(section: .sdkCache, key: "discard_after", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "sdk: {profile: alibaba-ios, cache: {discard_after: 3d}}")),
                check: httpdns { $0.sdk?.persistentCache.discardAfter == .seconds(3 * 86_400) }),
            Row(section: .request, key: "grpc", yaml: grpcPlan("{health: payments}"), check: { $0.scenarios.first?.request.grpc?.isHealthCheck == true }),
            Row(section: .grpc, key: "health", yaml: grpcPlan("{health: payments}"),
                check: { $0.scenarios.first?.request.grpc?.method == .health(service: "payments") }),
            Row(section: .grpc, key: "method", yaml: grpcPlan("{method: /p.S/M}"),
                check: { $0.scenarios.first?.request.url.pathAndQuery == "/p.S/M" }),
            Row(section: .grpc, key: "message_base64", yaml: grpcPlan("{method: /p.S/M, message_base64: AAE=}"),
                check: { $0.scenarios.first?.request.grpc?.message == Data([0, 1]) }),
            Row(section: .grpc, key: "metadata", yaml: grpcPlan("{health: '', metadata: {x-tenant: a}}"),
                check: { $0.scenarios.first?.request.headers.last == Header(name: "x-tenant", value: "a") }),
            Row(section: .expect, key: "grpc", yaml: grpcPlan("{health: ''}", expect: "{status: 5}"),
                check: { $0.scenarios.first?.expect.grpc == GRPCExpectation(status: GRPCStatusCode(rawValue: 5)) }),
            Row(section: .grpcExpect, key: "status", yaml: grpcPlan("{method: /p.S/M}", expect: "{status: unavailable}"),
                check: { $0.scenarios.first?.expect.grpc?.status == GRPCStatusCode(rawValue: 14) }),
            Row(section: .grpcExpect, key: "serving", yaml: grpcPlan("{health: ''}", expect: "{serving: NOT_SERVING}"),
                check: { $0.scenarios.first?.expect.grpc == GRPCExpectation(status: .ok, serving: .notServing) }),
            Row(section: .expect, key: "edges", yaml: plan(
                top: "clients: {gd: {ip: 120.196.0.1}}\n" + clientsMap(), scenario: "domains: ali",
                expect: "edges: [{clients: [gd], within: [120.196.0.0/16]}]"),
                check: { $0.scenarios.first?.expect.edges.count == 1 }),
            Row(section: .edgeRule, key: "clients", yaml: plan(
                top: "clients: {gd: {ip: 120.196.0.1, labels: {isp: cm}}}\n" + clientsMap(), scenario: "domains: ali",
                expect: "edges: [{clients: {isp: cm}, within: [192.0.2.1]}]"),
                check: { $0.scenarios.first?.expect.edges.first?.clients == .labels([ClientPopulation.Label(name: "isp", value: "cm")]) }),
            Row(section: .edgeRule, key: "within", yaml: plan(
                top: "clients: {gd: {ip: 120.196.0.1}}\n" + clientsMap(extra: "m: {static: {api.example.com: [192.0.2.9]}}"),
                scenario: "domains: ali", expect: "edges: [{clients: [gd], within: [120.196.0.0/16, 192.0.2.7, m]}]"),
                check: { plan in
                    guard let subnet = try? IPSubnet.parse("120.196.0.0/16").get(), let address = IPAddress("192.0.2.7") else { return false }
                    return plan.scenarios.first?.expect.edges.first?.within == [.subnet(subnet), .address(address), .map("m")]
                }),
            Row(section: .httpdns, key: "clients", yaml: plan(top: "clients: {gd: {ip: 120.196.0.1}}\n"
                + "domains: {m: {httpdns: {format: alibaba, url: 'http://192.0.2.1/d?host={host}&ip={client}', clients: [gd]}}}"),
                check: { plan in
                    if case .httpdns(let service)? = plan.domainMaps.first?.source { return service.clients == .named(["gd"]) }
                    return false
                }),
            Row(section: .httpdns, key: "fallback", yaml: plan(top: httpdnsMap.replacingOccurrences(of: "%@", with: "fallback: system")),
                check: httpdns { $0.fallback == .system }),
            Row(section: .httpdns, key: "auth", yaml: plan(top: httpdnsMap.replacingOccurrences(
                of: "%@", with: "auth: {scheme: dnspod-des, key: '${secret:AUTH_KEY}'}")),
                check: httpdns { $0.auth == .dnspodDES(key: "dnspodpass") }),

            Row(section: .httpdnsAuth, key: "scheme", yaml: plan(top: httpdnsMap.replacingOccurrences(
                of: "%@", with: "auth: {scheme: dnspod-aes, key: '${secret:AUTH_KEY}'}")),
                check: httpdns { $0.auth == .dnspodAES(key: "dnspodpass") }),
            Row(section: .httpdnsAuth, key: "secret", yaml: plan(top: alibabaAuthMap(", secret: '${secret:AUTH_SECRET}'")),
                check: httpdns { $0.auth == .alibabaSign(secret: "IAmASecret", validFor: HTTPDNSAuth.defaultValidity) }),
            Row(section: .httpdnsAuth, key: "key", yaml: plan(top: httpdnsMap.replacingOccurrences(
                of: "%@", with: "auth: {scheme: dnspod-des, key: '${secret:AUTH_KEY}'}")),
                check: httpdns { $0.auth == .dnspodDES(key: "dnspodpass") }),
            Row(section: .httpdnsAuth, key: "valid_for", yaml: plan(top: alibabaAuthMap(", secret: '${secret:AUTH_SECRET}', valid_for: 90s")),
                check: httpdns { $0.auth == .alibabaSign(secret: "IAmASecret", validFor: .seconds(90)) }),
            Row(section: .httpdnsAuth, key: "encrypt", yaml: plan(top: """
                domains: {m: {httpdns: {format: alibaba-v2, url: 'https://192.0.2.1/v2/d?id=1&dn={host}', \
                auth: {scheme: alibaba-v2, secret: '${secret:AUTH_HEX}', encrypt: aes-gcm, key: '${secret:AUTH_HEX}'}}}}
                """),
                check: httpdns {
                    $0.auth == .alibabaV2(
                        secret: "00112233445566778899aabbccddeeff", encryption: .aesGCM(key: "00112233445566778899aabbccddeeff"),
                        validFor: HTTPDNSAuth.defaultValidity)
                }),
        ]
        return rows
    }()

    @Test("each key's value lands in its field", arguments: rows)
    func decodes(_ row: Row) throws {
        let workspace = try PlanWorkspace()
        try workspace.write("certs/ca.pem", "x")
        try workspace.write("app/nsc.xml", Self.networkSecurityConfig)
        try workspace.write("app/raw/ca.pem", try Self.systemCertificatePEM())
        try workspace.write("app/Info.plist", Self.infoPlist)
        let path = try workspace.write("plan.yaml", row.yaml)
        let plan: Plan
        do {
            plan = try PlanLoader.load(path: path, variables: [:], environment: Self.environment)
        } catch {
            Issue.record("\(row.testDescription): \(error)")
            return
        }
        #expect(row.check(plan), "\(row.testDescription) did not land in its field")
    }

    @Test("there is a row for every key of every section")
    func everyKeyHasARow() {
        let covered = Set(Self.rows.map { "\($0.section.rawValue).\($0.key)" })
        let keys = PlanSection.allCases.flatMap { section in section.keys.names.map { "\(section.rawValue).\($0)" } }
        #expect(Set(keys).subtracting(covered).sorted() == [])
        #expect(covered.subtracting(keys).sorted() == [])
    }

    @Test("json_exists takes one path written alone as a one-item list")
    func oneJSONPathAlone() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", Self.plan(expect: "body: {json_exists: $.token}"))
        let plan = try PlanLoader.load(path: path, environment: [:])
        #expect(plan.scenarios.first?.expect.body == [.jsonExists([JSONPath(components: [.member("token")], text: "$.token")])])
    }

    /// Guards the rows: the `version` row's plan would load whatever `version` said, so it must
    /// also be read — a version other than 1 is refused.
    @Test("the version is read")
    func versionIsRead() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", Self.plan(version: 2))
        #expect(loadErrors(path).map(\.message) == ["unsupported plan version 2; this runner reads version 1"])
    }
}
