import Foundation
import PlanFixtures
import Testing

@testable import RunnerLab

/// The lab's replica of Alibaba's `/v2/d` checks, with the time passed in, signed by the
/// `openssl` command line: an implementation that is neither the lab's (swift-crypto) nor the
/// runner's (libcrypto through its facade).
@Suite("Lab: Alibaba /v2/d checks", .timeLimit(.minutes(1)))
struct AlibabaV2CheckTests {
    /// 2026-11-24T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_478_400)

    /// Hex HMAC-SHA256 of `text` under a hex key, by `openssl dgst`.
    static func hmac(_ text: String, hexKey: String) async throws -> String {
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "printf '%s' \"$1\" | openssl dgst -sha256 -mac HMAC -macopt hexkey:\"$2\"", "sh", text, hexKey],
                deadline: .seconds(30))
        }
        try #require(output.status == 0, "openssl failed: \(String(decoding: output.stderr, as: UTF8.self))")
        let line = String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(line.split(separator: " ").last ?? "")
    }

    /// A mode-0 query for `host`, signed with `secret` by openssl, expiring at `exp`.
    static func query(host: String, exp: Int, secret: String = LabDNS.alibabaV2Secret, id: String = LabDNS.account) async throws
        -> [(name: String, value: String)]
    {
        let signed = "dn=\(host)&exp=\(exp)&id=\(id)&m=0&q=4&v=1.0"
        return [("id", id), ("dn", host), ("q", "4"), ("v", "1.0"), ("m", "0"), ("exp", String(exp)),
                ("s", try await hmac(signed, hexKey: secret))]
    }

    @Test("openssl, the lab and httpdns-apis.md agree on the published vectors")
    func vectors() async throws {
        let secret = "00112233445566778899aabbccddeeff"
        for (text, expected) in [
            ("dn=www.aliyun.com&exp=1534316400&id=139450&m=0&q=4,6&v=1.0", "2ba571048a5b8f9c81e5ef9aecc5da674e2da11b4350d90132382e0066885295"),
            ("cip=120.196.0.1&dn=www.aliyun.com&exp=1534316400&id=139450&m=0&v=1.0", "20900a6da5005639da2bbebaffcf13e9eaf6fd56f6c1ed45e2120f20287bd5c9"),
        ] {
            #expect(try await Self.hmac(text, hexKey: secret) == expected)
            #expect(AlibabaV2Endpoint.signature(text, secret: secret) == expected)
        }
    }

    @Test("a right signature within 24 hours passes, with the names of the query")
    func accepted() async throws {
        let exp = Int(Self.now.timeIntervalSince1970) + 600
        let (names, mode) = try AlibabaV2Endpoint.check(try await Self.query(host: "api.lab.test", exp: exp), now: Self.now)
        #expect(mode == "0" && names["dn"] == "api.lab.test" && names["q"] == "4")
    }

    @Test("each refusal, by the service's code and status")
    func refusals() async throws {
        let now = Int(Self.now.timeIntervalSince1970)
        let cases: [(String, [(name: String, value: String)], String, UInt)] = [
            ("wrong secret", try await Self.query(host: "api.lab.test", exp: now + 600, secret: "ffeeddccbbaa99887766554433221100"),
             "InvalidSignature", 403),
            ("expired", try await Self.query(host: "api.lab.test", exp: now - 1), "SignatureExpired", 403),
            ("more than 24 hours ahead", try await Self.query(host: "api.lab.test", exp: now + 86_401), "InvalidDuration", 403),
            ("refused account", try await Self.query(host: "api.lab.test", exp: now + 600, id: LabDNS.refusedAccount),
             "InvalidAccount", 403),
            ("no signature", Array(try await Self.query(host: "api.lab.test", exp: now + 600).dropLast()), "MissingArgument", 400),
            ("enc that does not decrypt",
             [("id", "lab"), ("m", "2"), ("enc", "00"), ("v", "1.0"), ("exp", String(now + 600)),
              ("s", try await Self.hmac("enc=00&exp=\(now + 600)&id=lab&m=2&v=1.0", hexKey: LabDNS.alibabaV2Secret))],
             "DecryptionFailed", 403),
        ]
        for (name, pairs, code, status) in cases {
            do {
                _ = try AlibabaV2Endpoint.check(pairs, now: Self.now)
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.code == code && error.status.code == status, "\(name): \(error.code) \(error.status.code)")
            }
        }
    }
}
