import Foundation
import PlanFixtures
import Testing

@testable import RunnerLab

/// The lab's replica of Alibaba's `sign_d` check, with the time passed in.
@Suite("Lab: Alibaba signed interface", .timeLimit(.minutes(1)))
struct AlibabaSignatureTests {
    /// 2026-11-24T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_478_400)

    /// A query signed for `host` with expiry `t`, as the documentation's formula says.
    static func query(host: String, t: Int, secret: String = LabDNS.alibabaSecret) async throws -> String {
        // The documentation's vector: md5("www.aliyun.com-IAmASecret-1534316400") = 60c71e98…
        let signature = try await Self.md5Hex("\(host)-\(secret)-\(t)")
        return "host=\(host)&t=\(t)&s=\(signature)"
    }

    /// The MD5 of `text` in hex, by md5sum: an implementation that is not the lab's.
    static func md5Hex(_ text: String) async throws -> String {
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s' \"$1\" | md5sum", "sh", text], deadline: .seconds(30))
        }
        try #require(output.status == 0, "md5sum failed: \(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout.prefix(32), as: UTF8.self)
    }

    @Test("md5sum agrees with the documented vector (the helper itself is right)")
    func vector() async throws {
        #expect(try await Self.md5Hex("www.aliyun.com-IAmASecret-1534316400") == "60c71e98b6d7fcbb366243e224eab457")
    }

    @Test("a right signature within 24 hours passes")
    func accepted() async throws {
        let t = Int(Self.now.timeIntervalSince1970) + 600
        let query = try await Self.query(host: "api.lab.test", t: t)
        #expect(AlibabaEndpoint.signatureRefusal(query, host: "api.lab.test", now: Self.now) == nil)
    }

    @Test("the vendor's refusals: wrong secret, expired, too far ahead, missing arguments")
    func refusals() async throws {
        let nowSeconds = Int(Self.now.timeIntervalSince1970)
        let cases: [(String?, String, Int)] = [
            (try await Self.query(host: "api.lab.test", t: nowSeconds + 600, secret: "wrong"), "InvalidSignature", 403),
            (try await Self.query(host: "api.lab.test", t: nowSeconds - 1), "SignatureExpired", 403),
            (try await Self.query(host: "api.lab.test", t: nowSeconds + 24 * 3600 + 1), "InvalidDuration", 403),
            (try await Self.query(host: "other.lab.test", t: nowSeconds + 600), "InvalidSignature", 403),
            ("host=api.lab.test&t=\(nowSeconds + 600)", "MissingArgument", 400),
            (nil, "MissingArgument", 400),
        ]
        for (query, code, status) in cases {
            let refusal = AlibabaEndpoint.signatureRefusal(query, host: "api.lab.test", now: Self.now)
            #expect(refusal?.code == code, "\(query ?? "no query")")
            #expect(refusal.map { Int($0.status.code) } == status)
        }
    }
}
