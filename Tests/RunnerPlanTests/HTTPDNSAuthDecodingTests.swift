import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// `auth:` of httpdns maps beyond the one-error table (MalformedPlans): what a valid `auth`
/// becomes, that its credential is a plan secret, and the checks that depend on the
/// credential's value (which the table cannot control: it reads `${secret:HOME}`).
@Suite("HTTPDNS auth in plans")
struct HTTPDNSAuthDecodingTests {
    /// Distinctive values, so a test can tell that none of them shows in a message.
    static let environment = [
        "ALI_SECRET": "IAmASecret", "VOLC_SECRET": "QlgAuFMwNUwN", "DNSPOD_KEY": "dnspodpass",
        "SHORT_KEY": "seven77", "LONG_KEY": "seventeen-bytes!!", "EMPTY_SECRET": "",
    ]

    static func plan(format: String, url: String, auth: String, vars: String = "") -> String {
        """
        version: 1
        \(vars)
        domains:
          m:
            httpdns:
              format: \(format)
              url: "\(url)"
              auth: \(auth)
        scenarios:
          - name: a
            domains: m
            request: {url: "http://api.example.com/"}

        """
    }

    static let alibabaURL = "http://203.107.1.1/139450/sign_d?host={host}"
    static let dnspodURL = "http://119.29.29.98/d?dn={host}&id=12345&ttl=1"

    func load(_ yaml: String) throws -> Plan {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", yaml)
        return try PlanLoader.load(path: path, variables: [:], environment: Self.environment)
    }

    func errors(_ yaml: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", yaml)
        return loadErrors(path, environment: Self.environment).map(\.message)
    }

    func auth(of plan: Plan) -> HTTPDNSAuth? {
        guard case .httpdns(let spec) = plan.domainMaps.first?.source else { return nil }
        return spec.auth
    }

    @Test("each scheme decodes, with valid_for 10m by default, and its credential becomes a plan secret")
    func schemesDecode() throws {
        let cases: [(format: String, url: String, auth: String, expected: HTTPDNSAuth, secret: String)] = [
            ("alibaba", Self.alibabaURL, "{scheme: alibaba-sign, secret: '${secret:ALI_SECRET}'}",
             .alibabaSign(secret: "IAmASecret", validFor: .seconds(600)), "IAmASecret"),
            ("alibaba", Self.alibabaURL, "{scheme: alibaba-sign, secret: '${secret:ALI_SECRET}', valid_for: 1440m}",
             .alibabaSign(secret: "IAmASecret", validFor: .seconds(86400)), "IAmASecret"),
            ("dnspod", Self.dnspodURL, "{scheme: dnspod-des, key: '${secret:DNSPOD_KEY}'}",
             .dnspodDES(key: "dnspodpass"), "dnspodpass"),
            ("dnspod", Self.dnspodURL, "{scheme: dnspod-aes, key: '${secret:DNSPOD_KEY}'}",
             .dnspodAES(key: "dnspodpass"), "dnspodpass"),
            ("dnspod", Self.dnspodURL, "{scheme: dnspod-aes, key: '${secret:SHORT_KEY}'}",
             .dnspodAES(key: "seven77"), "seven77"),
        ]
        for item in cases {
            let plan = try load(Self.plan(format: item.format, url: item.url, auth: item.auth))
            #expect(auth(of: plan) == item.expected, "\(item.auth)")
            #expect(plan.secrets.contains(item.secret), "\(item.auth): the credential must be masked like any secret")
        }
    }

    @Test("a map without auth has none")
    func noAuth() throws {
        let plan = try load(Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "~").replacingOccurrences(
            of: "      auth: ~\n", with: ""))
        #expect(auth(of: plan) == nil)
    }

    @Test("credential checks that depend on its value, none of which quotes it")
    func credentialValueChecks() throws {
        let cases: [(auth: String, format: String, url: String, message: String)] = [
            ("{scheme: dnspod-des, key: '${secret:SHORT_KEY}'}", "dnspod", Self.dnspodURL,
             "the key for 'key' in httpdns.auth of domain map 'm' is shorter than the 8 bytes DES uses"),
            ("{scheme: dnspod-aes, key: '${secret:LONG_KEY}'}", "dnspod", Self.dnspodURL,
             "the key for 'key' in httpdns.auth of domain map 'm' is longer than 16 bytes (an AES-128 key; a shorter one is padded with '0')"),
            ("{scheme: alibaba-sign, secret: '${secret:EMPTY_SECRET}'}", "alibaba", Self.alibabaURL,
             "the secret for 'secret' in httpdns.auth of domain map 'm' is empty"),
        ]
        for item in cases {
            let messages = try errors(Self.plan(format: item.format, url: item.url, auth: item.auth))
            #expect(messages == [item.message])
        }
    }

    @Test("a secret brought in through a variable, or with text around it, is refused")
    func onlyADirectSecretReference() throws {
        let viaVariable = try errors(Self.plan(
            format: "alibaba", url: Self.alibabaURL, auth: "{scheme: alibaba-sign, secret: '${s}'}",
            vars: "vars: {s: '${secret:ALI_SECRET}'}"))
        let withText = try errors(Self.plan(
            format: "alibaba", url: Self.alibabaURL, auth: "{scheme: alibaba-sign, secret: 'x${secret:ALI_SECRET}'}"))
        let twoSecrets = try errors(Self.plan(
            format: "alibaba", url: Self.alibabaURL,
            auth: "{scheme: alibaba-sign, secret: '${secret:ALI_SECRET}${secret:VOLC_SECRET}'}"))
        let expected = "expected '${secret:NAME}' for 'secret' in httpdns.auth of domain map 'm' (a credential comes "
            + "from the environment and is masked in all output), got a value that is not exactly one '${secret:…}' reference (not shown)"
        #expect(viaVariable == [expected])
        #expect(withText == [expected])
        #expect(twoSecrets == [expected])
    }

    @Test("no auth error shows a credential")
    func noErrorShowsTheCredential() throws {
        let plans = [
            Self.plan(format: "alibaba", url: Self.alibabaURL, auth: "{scheme: alibaba-sign, secret: IAmASecret}"),
            Self.plan(format: "alibaba", url: Self.alibabaURL, auth: "{scheme: alibaba-sign, secret: \"IAmASecret${secret:VOLC_SECRET}\"}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: dnspod-des, key: '${env:DNSPOD_KEY}'}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: alibaba-sign, secret: '${secret:ALI_SECRET}'}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: dnspod-des, secret: '${secret:ALI_SECRET}'}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: dnspod-des, key: '${secret:SHORT_KEY}'}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: dnspod-aes, key: '${secret:LONG_KEY}'}"),
            Self.plan(format: "dnspod", url: Self.dnspodURL, auth: "{scheme: dnspod-aes, key: [IAmASecret]}"),
        ]
        for plan in plans {
            let messages = try errors(plan)
            #expect(!messages.isEmpty)
            for message in messages {
                for secret in ["IAmASecret", "QlgAuFMwNUwN", "dnspodpass", "seven77", "seventeen-bytes!!"] {
                    #expect(!message.contains(secret), "\(message)")
                }
            }
        }
    }

    @Test("with an unreadable format, only the format is reported, not the scheme that does not match it")
    func unreadableFormat() throws {
        let messages = try errors(Self.plan(
            format: "jsn", url: "https://httpdns.volcengineapi.com/resolve?domain={host}",
            auth: "{scheme: volcengine-sign, secret: '${secret:VOLC_SECRET}'}"))
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("expected one of 'dnspod', 'alibaba', 'doh-json', 'json', 'doh' for 'format'") == true)
    }

    @Test("printing a spec or its auth shows no credential")
    func descriptionsMask() {
        let auths: [HTTPDNSAuth] = [
            .alibabaSign(secret: "IAmASecret", validFor: .seconds(600)),
            .volcengineSign(secret: "IAmASecret", validFor: .seconds(90)),
            .dnspodDES(key: "IAmASecret"), .dnspodAES(key: "IAmASecret"),
        ]
        for auth in auths {
            let spec = HTTPDNSSpec(format: .alibaba, urlTemplate: "http://x/?host={host}", timeout: .seconds(2), fallback: .none, auth: auth)
            var dumped = ""
            dump(spec, to: &dumped)
            for text in [String(describing: auth), String(reflecting: auth), "\(spec)", String(reflecting: spec), dumped] {
                #expect(!text.contains("IAmASecret"), "\(text)")
                #expect(text.contains(auth.scheme.rawValue), "\(text)")
            }
        }
        #expect(String(describing: auths[0]) == "alibaba-sign (secret ***, valid for 10m)")
        #expect(String(describing: auths[2]) == "dnspod-des (key ***)")
    }
}
