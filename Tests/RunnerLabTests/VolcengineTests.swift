import Foundation
import Testing

@testable import RunnerLab

/// The lab's replica of Volcengine HTTPDNS's signed interface: the signature check with the
/// vendor's vector and the time passed in, then lookups over HTTP signed by `md5sum`.
@Suite("Lab: Volcengine signed interface", .timeLimit(.minutes(3)))
struct VolcengineTests {
    /// 2026-11-24T00:00:00Z, in milliseconds.
    static let nowMilliseconds: Int64 = 1_795_478_400_000
    static let now = Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000)

    /// A query string signed as the vendor's documentation says: the values sorted, joined with `_`, MD5.
    static func query(
        domain: String, account: String = LabDNS.volcengineAccount, timestamp: Int64, ip: String? = nil,
        type: String? = nil, secret: String = LabDNS.volcengineSecret
    ) async throws -> String {
        let values = [secret, String(timestamp), account, domain, ip ?? "", type ?? ""]
        let sign = try await AlibabaSignatureTests.md5Hex(values.sorted().joined(separator: "_"))
        var query = "domain=\(domain)&account_id=\(account)&timestamp=\(timestamp)&sign=\(sign)"
        if let ip { query += "&ip=\(ip)" }
        if let type { query += "&type=\(type)" }
        return query
    }

    static func refusal(_ query: String) throws -> VolcengineSignature.Refusal? {
        VolcengineSignature.refusal(try QueryString.pairs(query), now: now)
    }

    @Test("the lab's signature is the vendor's: the documented vector")
    func vector() async throws {
        let signature = VolcengineSignature.signature(
            secret: "QlgAuFMwNUwN", timestamp: "1566808387000", values: ["1023", "www.a.com,www.b.com", "", ""])
        #expect(signature == "4b00a808d49a334991b7e50d324a9287")
        #expect(try await AlibabaSignatureTests.md5Hex("__1023_1566808387000_QlgAuFMwNUwN_www.a.com,www.b.com") == signature)
    }

    @Test("a right signature within 24 hours passes, ip and type included")
    func accepted() async throws {
        let timestamp = Self.nowMilliseconds + 600_000
        let queries = [
            try await Self.query(domain: "api.lab.test", timestamp: timestamp),
            try await Self.query(domain: "api.lab.test", timestamp: timestamp, ip: "198.51.100.7", type: "AAAA"),
            try await Self.query(domain: "api.lab.test", timestamp: Self.nowMilliseconds + 24 * 3_600_000),
        ]
        for query in queries {
            #expect(try Self.refusal(query) == nil, "\(query)")
        }
    }

    @Test("the vendor's refusals: wrong secret, expired, too far ahead, missing or malformed arguments")
    func refusals() async throws {
        let soon = Self.nowMilliseconds + 600_000
        let signed = try await Self.query(domain: "api.lab.test", timestamp: soon)
        let cases: [(String, String, Int)] = [
            (try await Self.query(domain: "api.lab.test", timestamp: soon, secret: "wrong"), "InvalidSignature", 403),
            // ip and type are signed: adding one the signature did not cover breaks it.
            (signed + "&ip=198.51.100.7", "InvalidSignature", 403),
            (signed + "&type=A", "InvalidSignature", 403),
            (signed.replacingOccurrences(of: "api.lab.test", with: "sni.lab.test"), "InvalidSignature", 403),
            (try await Self.query(domain: "api.lab.test", timestamp: Self.nowMilliseconds - 1), "SignatureExpired", 403),
            (try await Self.query(domain: "api.lab.test", timestamp: Self.nowMilliseconds + 24 * 3_600_000 + 1), "InvalidDuration", 403),
            ("domain=api.lab.test&account_id=1&timestamp=soon&sign=00", "InvalidArgument", 400),
            ("account_id=1&timestamp=\(soon)&sign=00", "MissingArgument", 400),
            ("domain=&account_id=1&timestamp=\(soon)&sign=00", "MissingArgument", 400),
            ("domain=api.lab.test&timestamp=\(soon)&sign=00", "MissingArgument", 400),
            ("domain=api.lab.test&account_id=1&sign=00", "MissingArgument", 400),
            ("domain=api.lab.test&account_id=1&timestamp=\(soon)", "MissingArgument", 400),
        ]
        for (query, code, status) in cases {
            let refusal = try Self.refusal(query)
            #expect(refusal?.code == code, "\(query)")
            #expect(refusal.map { Int($0.status.code) } == status, "\(query)")
        }
    }

    /// `http://127.0.0.2:PORT/httpdns/volcengine/resolve?` + `query`.
    static func url(_ lab: Lab, _ query: String) -> String {
        "http://\(LabAddress.primary):\(lab.httpPort)/httpdns/volcengine/resolve?\(query)"
    }

    /// A query signed now for an hour.
    static func signedNow(domain: String, ip: String? = nil, type: String? = nil) async throws -> String {
        try await query(domain: domain, timestamp: Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000, ip: ip, type: type)
    }

    @Test("signed lookups answer {\"data\":{\"ipv4\",\"ipv6\",\"ttl\"}}")
    func answers() async throws {
        let lab = try await StatelessLab.get()
        let cases: [(String, String)] = [
            (try await Self.signedNow(domain: "api.lab.test"), #"{"data":{"ipv4":["127.0.0.2","127.0.0.5"],"ipv6":["::1"],"ttl":60}}"#),
            (try await Self.signedNow(domain: "api.lab.test", type: "A"), #"{"data":{"ipv4":["127.0.0.2","127.0.0.5"],"ipv6":[],"ttl":60}}"#),
            (try await Self.signedNow(domain: "API.lab.test.", ip: "198.51.100.7", type: "AAAA"), #"{"data":{"ipv4":[],"ipv6":["::1"],"ttl":60}}"#),
            (try await Self.signedNow(domain: "shortttl.lab.test"), #"{"data":{"ipv4":["127.0.0.2"],"ipv6":[],"ttl":1}}"#),
            (try await Self.signedNow(domain: "nowhere.lab.test"), #"{"data":{"ipv4":[],"ipv6":[],"ttl":60}}"#),
            (try await Self.signedNow(domain: "empty.lab.test"), #"{"data":{"ipv4":[],"ipv6":[],"ttl":60}}"#),
        ]
        for (query, body) in cases {
            let result = try await Command.curl(["--dump-header", "/dev/stderr", Self.url(lab, query)])
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(query): \(result.errorOutput)")
            #expect(result.errorOutput.lowercased().contains("content-type: application/json\r\n"))
            #expect(result.text == body, "\(query)")
        }
    }

    @Test("refusals carry {\"error\":{\"code\",\"message\"}} and count as lookups")
    func refusalsOverHTTP() async throws {
        try await withLab { lab in
            let later = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
            let cases: [(String, Int, String)] = [
                (try await Self.query(domain: "api.lab.test", timestamp: later, secret: "wrong"), 403, "InvalidSignature"),
                (try await Self.query(domain: "api.lab.test", timestamp: 1_566_808_387_000), 403, "SignatureExpired"),
                (try await Self.query(domain: "api.lab.test", timestamp: later + 25 * 3_600_000), 403, "InvalidDuration"),
                ("domain=api.lab.test&account_id=1&timestamp=\(later)", 400, "MissingArgument"),
                (try await Self.query(domain: "api.lab.test", timestamp: later, type: "MX"), 400, "InvalidArgument"),
                (try await Self.query(domain: "api.lab.test,sni.lab.test", timestamp: later), 400, "InvalidArgument"),
            ]
            for (query, status, code) in cases {
                let result = try await Command.curl(["--dump-header", "/dev/stderr", Self.url(lab, query)])
                #expect(result.errorOutput.hasPrefix("HTTP/1.1 \(status) "), "\(query): \(result.errorOutput)")
                let error = try #require(try result.jsonObject()["error"] as? [String: Any], "\(result.text)")
                #expect(error["code"] as? String == code, "\(query): \(result.text)")
                #expect((error["message"] as? String)?.isEmpty == false)
                #expect(!result.text.contains(LabDNS.volcengineSecret))
            }
            let missingDomain = try await Command.curl([Self.url(lab, "account_id=1&timestamp=\(later)&sign=00")])
            #expect(missingDomain.text.contains(#""code":"MissingArgument""#), "\(missingDomain.text)")
            #expect(lab.httpdnsLookups(format: .volcengine, host: "api.lab.test") == 6)
            #expect(lab.httpdnsLookups(format: "volcengine", host: "sni.lab.test") == 1)
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 6)
        }
    }

    @Test("fault hosts misbehave as in every format, once the signature holds")
    func faults() async throws {
        try await withLab { lab in
            let garbage = try await Command.curl(
                ["--dump-header", "/dev/stderr", Self.url(lab, try await Self.signedNow(domain: "garbage.lab.test"))])
            #expect(garbage.errorOutput.lowercased().contains("content-type: text/html"), "\(garbage.errorOutput)")
            #expect(garbage.text == LabDNS.garbagePage)
            let error = try await Command.curl(
                ["--dump-header", "/dev/stderr", Self.url(lab, try await Self.signedNow(domain: "error.lab.test"))])
            #expect(error.errorOutput.hasPrefix("HTTP/1.1 500 "), "\(error.errorOutput)")
            #expect(error.text == LabDNS.serverErrorText)
            let hang = try await Command.run(
                "curl", ["--silent", "--max-time", "1", "--include", Self.url(lab, try await Self.signedNow(domain: "hang.lab.test"))])
            #expect(hang.exitCode == 28, "curl should time out: \(hang.errorOutput)")
            #expect(hang.output.isEmpty)
            // An unsigned fault host is refused before its fault can happen.
            let unsigned = try await Command.curl([Self.url(lab, "domain=hang.lab.test&account_id=1")])
            #expect(unsigned.text.contains("MissingArgument"), "\(unsigned.text)")
            #expect(lab.httpdnsLookups(format: .volcengine, host: "hang.lab.test") == 2)
        }
    }
}
