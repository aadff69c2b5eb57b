import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

/// Signed HTTPDNS end to end: the runner signs each lookup (`auth: alibaba-sign`), the lab's
/// replica of Alibaba's `sign_d` checks the signature and expiry with its own MD5 (swift-crypto)
/// and answers or refuses with the vendor's codes.
@Suite("HTTPDNS auth against the lab", .timeLimit(.minutes(3)))
struct HTTPDNSAuthLabTests {
    static let secretName = "LAB_ALI_SECRET"

    static func plan(path: String, auth: String?, fallback: String? = nil) -> String {
        """
        version: 1
        name: httpdns-auth
        defaults:
          timeout: 5s
          ca: {{ca}}
          domains: ali
        domains:
          ali:
            httpdns:
              format: alibaba
              url: "http://127.0.0.2:{{http}}/httpdns/alibaba/\(path)?host={host}"
              timeout: 3s
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
