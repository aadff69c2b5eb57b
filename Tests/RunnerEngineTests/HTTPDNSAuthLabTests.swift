import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine

/// Signed HTTPDNS end to end: the runner signs each lookup (`auth: alibaba-sign`), the lab's
/// replica of Alibaba's `sign_d` checks the signature and expiry with its own MD5 (swift-crypto)
/// and answers or refuses with the vendor's codes.
@Suite("HTTPDNS auth against the lab", .timeLimit(.minutes(3)))
struct HTTPDNSAuthLabTests {
    static let secretName = "LAB_ALI_SECRET"

    /// The time limits are wide: every answer here comes at once, and a parallel run once held
    /// the lab's answer past 3 s (CI, both tests of this suite that look up, at the same moment).
    static func plan(path: String, auth: String?, fallback: String? = nil) -> String {
        """
        version: 1
        name: httpdns-auth
        defaults:
          timeout: 15s
          ca: {{ca}}
          domains: ali
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://127.0.0.2:{{http}}/httpdns/alibaba/\(path)?host={host}"
              timeout: 10s
        \(auth.map { "      auth: \($0)\n" } ?? "")\(fallback.map { "      fallback: \($0)\n" } ?? "")  backup:
            static:
              api.lab.test: [127.0.0.5]
        scenarios:
          - name: first
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/echo"}
          - name: second
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/echo?again"}
        """
    }

    static let signed = "{scheme: alibaba-sign, secret: \"${secret:\(secretName)}\", valid_for: 5m}"

    @Test("a signed lookup is accepted, reaches the IP it returned, and is made once for both scenarios")
    func signedLookupResolves() async throws {
        let labRun = try await LabRun.dedicated()
        let run = try await labRun.run(
            Self.plan(path: "\(LabDNS.signedOnlyAccount)/sign_d", auth: Self.signed), jobs: 1,
            environment: [Self.secretName: LabDNS.alibabaSecret])
        #expect(run.all.map(\.passed) == [true, true], "\(run.all.map(\.summary))")
        #expect(run.all.map(\.ip) == ["127.0.0.2", "127.0.0.2"])
        #expect(run.all.first?.evidence.ipSource.hasPrefix("HTTPDNS map 'ali' (alibaba, alibaba-sign) via http://127.0.0.2:") == true,
            "\(run.all.first?.evidence.ipSource ?? "")")
        #expect(run.all.first?.evidence.ipSource.contains("&s=") == false, "the signed URL is never shown")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1)
        try await labRun.lab.shutdown()
    }

    @Test("a wrong secret is the service's InvalidSignature, named with the map, and the secret is nowhere")
    func wrongSecretIsRefused() async throws {
        let wrong = "not-the-lab-secret"
        let run = try await LabRun.make().run(
            Self.plan(path: "\(LabDNS.signedOnlyAccount)/sign_d", auth: Self.signed), environment: [Self.secretName: wrong])
        let error = try #require(run.all.first?.error)
        #expect(error.kind == .resolve)
        #expect(error.message.hasPrefix("HTTPDNS map 'ali' (alibaba, alibaba-sign) at http://127.0.0.2:"), "\(error.message)")
        #expect(error.message.contains("InvalidSignature (HTTP 403)"), "\(error.message)")
        #expect(!error.description.contains(wrong))
    }

    @Test("an account whose unsigned interface is off refuses unsigned lookups; the fallback map answers")
    func unsignedInterfaceDisabledFallsBack() async throws {
        let run = try await LabRun.make().run(
            Self.plan(path: "\(LabDNS.signedOnlyAccount)/d", auth: nil, fallback: "backup"))
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.ip == "127.0.0.5")
        #expect(result.evidence.resolutionFallbackFrom == "ali")
        #expect(result.evidence.notes.first?.contains("UnsignedInterfaceDisabled (HTTP 403)") == true, "\(result.evidence.notes)")
    }
}

/// The other schemes end to end against the lab's replicas: DNSPod D+ encrypted (DES and AES:
/// the lab decrypts `dn` with its own key and encrypts its answer), Volcengine signed (its answer
/// read as `format: json`), and the signature's time window (the signing clock shifted).
@Suite("HTTPDNS encrypted and signed vendors against the lab", .timeLimit(.minutes(3)))
struct HTTPDNSVendorLabTests {
    static let keyName = "LAB_DNSPOD_KEY"
    static let volcName = "LAB_VOLC_SECRET"

    static func plan(_ map: String) -> String {
        """
        version: 1
        name: vendors
        defaults: {timeout: 5s, ca: {{ca}}, domains: vendor}
        domains:
          vendor:
            httpdns:
              timeout: 5s
        \(map.split(separator: "\n").map { "      \($0)" }.joined(separator: "\n"))
        scenarios:
          - name: first
            strategy: sni-resolve
            ips: all
            request: {url: "https://api.lab.test:{{https}}/echo"}
            expect:
              body: {json: {"$.sni": api.lab.test}}
          - name: second
            strategy: header-only
            request: {url: "http://api.lab.test:{{http}}/echo?again"}
        """
    }

    static func dnspod(_ scheme: String) -> String {
        """
        format: dnspod
        url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&id=1&ttl=1"
        auth: {scheme: \(scheme), key: "${secret:\(keyName)}"}
        """
    }

    static let volcengine = """
        format: json
        url: "http://127.0.0.2:{{http}}/httpdns/volcengine/resolve?domain={host}&account_id=\(LabDNS.volcengineAccount)"
        auth: {scheme: volcengine-sign, secret: "${secret:\(volcName)}", valid_for: 5m}
        answer: {ips: "$.data.ipv4[*]", ipv6: "$.data.ipv6[*]", ttl: "$.data.ttl"}
        """

    static let environment = [keyName: LabDNS.dnspodKey, volcName: LabDNS.volcengineSecret]

    @Test(
        "each scheme's lookup is accepted, reaches every IP the service returned, and is made once per host",
        arguments: [("dnspod-des", dnspod("dnspod-des")), ("dnspod-aes", dnspod("dnspod-aes")), ("volcengine-sign", volcengine)])
    func resolves(scheme: String, map: String) async throws {
        let labRun = try await LabRun.dedicated()
        let run = try await labRun.run(Self.plan(map), jobs: 1, environment: Self.environment)
        #expect(run.all.map(\.ip) == ["127.0.0.2", "127.0.0.5", "::1", "127.0.0.2"], "\(run.all.map(\.summary))")
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        let source = run.all.first?.evidence.ipSource ?? ""
        #expect(source.contains(", \(scheme)) via http://127.0.0.2:"), "\(source)")
        // The URL as the plan wrote it: no ciphertext, signature or timestamp.
        #expect(source.contains("dn=api.lab.test") || source.contains("domain=api.lab.test"), "\(source)")
        #expect(!source.contains("alg=") && !source.contains("sign=") && !source.contains("timestamp="), "\(source)")
        #expect(labRun.lab.httpdnsLookups(host: "api.lab.test") == 1, "one lookup for both scenarios")
        try await labRun.lab.shutdown()
    }

    @Test("a wrong DNSPod key: the lab cannot decrypt the query and answers nothing; the error says check the key",
          arguments: ["dnspod-des", "dnspod-aes"])
    func wrongKey(scheme: String) async throws {
        let wrong = "wrong-key-1234"
        let run = try await LabRun.make().run(Self.plan(Self.dnspod(scheme)), environment: [Self.keyName: wrong])
        let error = try #require(run.all.first?.error)
        #expect(error.kind == .resolve)
        #expect(error.message.hasPrefix("HTTPDNS map 'vendor' (dnspod, \(scheme)) at http://127.0.0.2:"), "\(error.message)")
        #expect(error.message.contains("is the key right?"), "\(error.message)")
        #expect(!error.description.contains(wrong))
    }

    @Test("a wrong Volcengine secret is the service's InvalidSignature (HTTP 403), quoted from its body")
    func wrongVolcengineSecret() async throws {
        let wrong = "not-the-volc-secret"
        let run = try await LabRun.make().run(Self.plan(Self.volcengine), environment: [Self.volcName: wrong])
        let error = try #require(run.all.first?.error)
        #expect(error.message.hasPrefix("HTTPDNS map 'vendor' (json, volcengine-sign) at http://127.0.0.2:"), "\(error.message)")
        #expect(error.message.contains("HTTP 403: '{\"error\":{\"code\":\"InvalidSignature\""), "\(error.message)")
        #expect(!error.description.contains(wrong))
    }

    /// Signed an hour ago with 5 minutes of validity: expired when it arrives. Signed two days
    /// ahead: further than the service allows.
    @Test("a signature's time window is the service's to enforce: expired, and too far ahead",
          arguments: [(-3600.0, "SignatureExpired"), (2 * 86400.0, "InvalidDuration")])
    func timeWindow(shift: Double, code: String) async throws {
        let alibaba = """
            format: alibaba
            url: "http://127.0.0.2:{{http}}/httpdns/alibaba/\(LabDNS.signedOnlyAccount)/sign_d?host={host}"
            auth: {scheme: alibaba-sign, secret: "${secret:ALI}", valid_for: 5m}
            """
        for (map, name, secret) in [(alibaba, "ALI", LabDNS.alibabaSecret), (Self.volcengine, Self.volcName, LabDNS.volcengineSecret)] {
            let run = try await LabRun.make().run(
                Self.plan(map), environment: [name: secret], wallClock: WallClock { Date(timeIntervalSinceNow: shift) })
            let error = try #require(run.all.first?.error, "\(run.all.map(\.summary))")
            #expect(error.kind == .resolve)
            #expect(error.message.contains(code), "\(error.message)")
        }
    }
}
