import Foundation
import LabTestSupport
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine

/// Alibaba `/v2/d` end to end, in clear and in both encrypted modes: the runner signs (and
/// encrypts) each lookup with OpenSSL; the lab's replica checks the HMAC, the expiry and decrypts
/// `enc` with swift-crypto, and answers (encrypted in the same mode), or refuses with the
/// service's codes.
@Suite("Alibaba /v2/d against the lab", .timeLimit(.minutes(3)))
struct AlibabaV2LabTests {
    /// The lab's credentials, which every lab run has (`LabDNS.credentialsEnvironment`).
    static let environment: [String: String] = [:]

    static func plan(
        encrypt: String, secret: String = "LAB_ALIBABA_V2_SECRET", key: String = "LAB_ALIBABA_V2_KEY", account: String = LabDNS.account,
        clients: String? = nil
    ) -> String {
        let keyPart = encrypt == "none" ? "" : ", key: \"${secret:\(key)}\""
        let population = clients == nil ? "" : """
            clients:
              gd-mobile: {ip: 120.196.0.1}
              sh-telecom: {ip: 101.80.0.1}

            """
        return """
            version: 1
            name: alibaba-v2
            \(population)defaults: {timeout: 15s, ca: "{{ca}}", domains: ali}
            domains:
              ali:
                httpdns:
                  format: alibaba-v2
                  url: "http://127.0.0.2:{{http}}/v2/d?id=\(account)&dn={host}"
                  timeout: 10s
                  auth: {scheme: alibaba-v2, secret: "${secret:\(secret)}", encrypt: \(encrypt)\(keyPart)}
            \(clients.map { "      clients: \($0)\n" } ?? "")scenarios:
              - name: api
                strategy: sni-resolve
                ip_version: any
                ips: all
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect:
                  body: {json: {"$.sni": api.lab.test}}
            """
    }

    @Test("each mode is accepted and reaches every address the service returned, both families", arguments: ["none", "aes-cbc", "aes-gcm"])
    func eachModeResolves(encrypt: String) async throws {
        let run = try await LabRun.make().run(Self.plan(encrypt: encrypt), environment: Self.environment)
        #expect(run.all.map { $0.ip ?? "-" } == ["127.0.0.2", "127.0.0.5", "::1"], "\(run.all.map(\.summary))")
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        let source = try #require(run.all.first?.evidence.ipSource)
        #expect(source.hasPrefix("HTTPDNS map 'ali' (alibaba-v2, alibaba-v2) via http://127.0.0.2:"), "\(source)")
        #expect(source.contains("/v2/d?id=lab&dn=api.lab.test&q=4%2C6&v=1.0"), "the query before signing: \(source)")
        for signedPart in ["&s=", "enc=", "exp=", LabDNS.alibabaV2Secret, LabDNS.alibabaV2Key] {
            #expect(!source.contains(signedPart), "\(source)")
        }
    }

    @Test("a client population travels as cip, inside enc when encrypted", arguments: ["none", "aes-gcm"])
    func clientAsCip(encrypt: String) async throws {
        let run = try await LabRun.make().run(Self.plan(encrypt: encrypt, clients: "[gd-mobile, sh-telecom]"), environment: Self.environment)
        // The lab sends gd-mobile to 127.0.0.2 and sh-telecom to 127.0.0.5, IPv4 only.
        #expect(run.all.map { "\($0.ip ?? "-") \($0.evidence.clients.map(\.name))" } == [
            "127.0.0.2 [\"gd-mobile\"]", "127.0.0.5 [\"sh-telecom\"]",
        ], "\(run.all.map(\.summary))")
    }

    @Test("refusals are the service's codes, named with the map; no secret shows", arguments: [
        ("wrong secret", "none", "WRONG_SECRET", "LAB_ALIBABA_V2_KEY", LabDNS.account, "InvalidSignature (HTTP 403)"),
        ("wrong key, GCM", "aes-gcm", "LAB_ALIBABA_V2_SECRET", "WRONG_KEY", LabDNS.account, "DecryptionFailed (HTTP 403)"),
        ("wrong key, CBC", "aes-cbc", "LAB_ALIBABA_V2_SECRET", "WRONG_KEY", LabDNS.account, "DecryptionFailed (HTTP 403)"),
        ("refused account", "none", "LAB_ALIBABA_V2_SECRET", "LAB_ALIBABA_V2_KEY", LabDNS.refusedAccount, "InvalidAccount (HTTP 403)"),
    ])
    func refusals(name: String, encrypt: String, secret: String, key: String, account: String, code: String) async throws {
        let wrong = ["WRONG_SECRET": "ffeeddccbbaa99887766554433221100", "WRONG_KEY": "00000000000000000000000000000000"]
        let run = try await LabRun.make().run(
            Self.plan(encrypt: encrypt, secret: secret, key: key, account: account), environment: Self.environment.merging(wrong) { $1 })
        let error = try #require(run.all.first?.error, "\(name): \(run.all.map(\.summary))")
        #expect(error.kind == .resolve)
        #expect(error.message.hasPrefix("HTTPDNS map 'ali' (alibaba-v2, alibaba-v2) at http://127.0.0.2:"), "\(error.message)")
        #expect(error.message.contains(code), "\(name): \(error.message)")
        for value in Array(wrong.values) + [LabDNS.alibabaV2Secret, LabDNS.alibabaV2Key] {
            #expect(!error.description.contains(value), "\(name): \(error.description)")
        }
    }

    @Test("a signature past its time is SignatureExpired")
    func expired() async throws {
        let run = try await LabRun.make().run(
            Self.plan(encrypt: "none"), environment: Self.environment, wallClock: WallClock { Date().addingTimeInterval(-3600) })
        let error = try #require(run.all.first?.error)
        #expect(error.message.contains("SignatureExpired (HTTP 403)"), "\(error.message)")
    }
}
