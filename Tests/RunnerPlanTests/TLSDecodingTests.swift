import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// `tls:` (defaults and scenario, key by key, a profile folded in), `expect.certificate.pins`
/// and `expect.tls`, decoded.
@Suite("Mobile trust keys")
struct TLSDecodingTests {
    static func load(_ yaml: String) throws -> Plan {
        let workspace = try PlanWorkspace()
        return try PlanLoader.load(path: try workspace.write("plan.yaml", yaml), environment: [:])
    }

    @Test func aScenarioOverridesTheDefaultsKeyByKeyAndAProfileNarrows() throws {
        let plan = try Self.load("""
            version: 1
            defaults:
              tls: {profile: ios-ats, curves: [X25519, P-256]}
            scenarios:
              - name: inherits
                request: {url: https://api.example.com/}
              - name: narrows
                tls: {ciphers: [ECDHE-RSA-AES128-GCM-SHA256, ECDHE-ECDSA-AES128-GCM-SHA256], min_version: "1.3"}
                request: {url: https://api.example.com/}
              - name: plain
                tls: {max_version: "1.2", tls13_ciphers: TLS_AES_128_GCM_SHA256}
                request: {url: https://api.example.com/}
            """)
        let inherits = plan.scenarios[0].settings.tls
        #expect(inherits == ClientTLS(
            minVersion: .v1_2, ciphers: TLSProfile.iosATS.ciphers, curves: ["X25519", "P-256"], profile: .iosATS))
        let narrows = plan.scenarios[1].settings.tls
        #expect(narrows.minVersion == .v1_3)
        #expect(narrows.ciphers == ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"])
        #expect(narrows.curves == ["X25519", "P-256"])
        #expect(narrows.profile == .iosATS)
        // The defaults' profile still applies: a scenario's keys narrow it, they do not drop it.
        let plain = plan.scenarios[2].settings.tls
        #expect(plain.profile == .iosATS && plain.maxVersion == .v1_2 && plain.tls13Ciphers == ["TLS_AES_128_GCM_SHA256"])
    }

    @Test func pinsAndExpectTLS() throws {
        let digest = (0..<32).map { UInt8($0) }
        let pin = "sha256/" + Data(digest).base64EncodedString()
        let plan = try Self.load("""
            version: 1
            scenarios:
              - name: a
                request: {url: https://api.example.com/}
                expect:
                  certificate: {pins: ["\(pin)"]}
                  tls: {version: "1.3", cipher: {contains: AES_256}}
            """)
        let expect = plan.scenarios[0].expect
        #expect(expect.certificate?.pins == [digest])
        #expect(expect.tls?.version == .v1_3)
        #expect(expect.tls?.cipher == .contains("AES_256"))
        #expect(plan.scenarios[0].settings.tls == ClientTLS())
    }

    /// A mistake in the defaults' `tls` is the defaults': reported once, not once per scenario.
    @Test func aDefaultsMistakeIsReportedOnce() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", """
            version: 1
            defaults:
              tls: {profile: ios-ats, ciphers: [AES128-GCM-SHA256]}
            scenarios:
              - {name: a, request: {url: https://api.example.com/}}
              - {name: b, request: {url: https://api.example.com/}}
              - {name: c, request: {url: https://api.example.com/}}
            """)
        let errors = #expect(throws: PlanErrors.self) { try PlanLoader.load(path: path, environment: [:]) }
        #expect(errors?.errors.map(\.description) == [
            "\(path):3:37: error: none of the ciphers of defaults is one profile 'ios-ats' allows; its TLS 1.2 ciphers are "
                + TLSProfile.iosATS.ciphers.joined(separator: ", "),
        ])
    }

    /// OpenSSL, not a list of the runner's, decides which names exist.
    @Test(arguments: [
        ("ECDHE-RSA-AES128-GCM-SHA256", true), ("AES128-GCM-SHA256", true), ("HIGH", false), ("TLS_AES_128_GCM_SHA256", false),
        ("AES128-GCM-SHA256:AES256-GCM-SHA384", false), ("", false),
    ])
    func cipherNames(name: String, known: Bool) {
        #expect(TLSNames.isCipher(name) == known)
    }

    @Test func suiteAndGroupNames() {
        #expect(TLSNames.isTLS13Cipher("TLS_CHACHA20_POLY1305_SHA256"))
        #expect(!TLSNames.isTLS13Cipher("ECDHE-RSA-AES128-GCM-SHA256"))
        #expect(TLSNames.isGroup("X25519") && TLSNames.isGroup("P-384") && TLSNames.isGroup("prime256v1"))
        #expect(!TLSNames.isGroup("P-255") && !TLSNames.isGroup("X25519:P-256"))
    }
}
