import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("Verdict: expectation checker", .timeLimit(.minutes(3)))
struct VerdictExpectationCheckerTests {
    // MARK: Status

    static let statusCases: [VerdictCase] = [
        VerdictCase("default 2xx passes 204", expecting(), response(status: 204)),
        VerdictCase(
            "default 2xx fails 404", expecting(), response(status: 404),
            [problem("status", "2xx", "404")]),
        VerdictCase("exact code passes", expecting { $0.status = .codes([200]) }, response(status: 200)),
        VerdictCase(
            "exact code fails", expecting { $0.status = .codes([200]) }, response(status: 201),
            [problem("status", "200", "201")]),
        VerdictCase(
            "code list passes the second", expecting { $0.status = .codes([200, 204]) }, response(status: 204)),
        VerdictCase(
            "code list fails", expecting { $0.status = .codes([200, 204]) }, response(status: 500),
            [problem("status", "200, 204", "500")]),
        VerdictCase("classes pass 302", expecting { $0.status = .classes([2, 3]) }, response(status: 302)),
        VerdictCase(
            "classes fail 503", expecting { $0.status = .classes([2, 3]) }, response(status: 503),
            [problem("status", "2xx, 3xx", "503")]),
    ]

    @Test(arguments: statusCases)
    func status(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    // MARK: Headers

    static let headerCases: [VerdictCase] = [
        VerdictCase(
            "equals passes, names case-insensitive",
            expecting { $0.headers = [HeaderExpectation(name: "Content-Type", matcher: .equals("application/json"))] },
            response(headers: [Header(name: "content-type", value: "application/json")])),
        VerdictCase(
            "equals fails with the value quoted",
            expecting { $0.headers = [HeaderExpectation(name: "Content-Type", matcher: .equals("application/json"))] },
            response(headers: [Header(name: "Content-Type", value: "text/html")]),
            [problem("header Content-Type", "equals 'application/json'", "'text/html'")]),
        VerdictCase(
            "surrounding whitespace is not part of the value",
            expecting { $0.headers = [HeaderExpectation(name: "Content-Type", matcher: .equals("application/json"))] },
            response(headers: [Header(name: "Content-Type", value: " application/json\t")])),
        VerdictCase(
            "contains passes, plan name in capitals",
            expecting { $0.headers = [HeaderExpectation(name: "CONTENT-TYPE", matcher: .contains("json"))] },
            response(headers: [Header(name: "Content-Type", value: "application/json; charset=utf-8")])),
        VerdictCase(
            "contains fails, subject keeps the plan's spelling",
            expecting { $0.headers = [HeaderExpectation(name: "content-TYPE", matcher: .contains("json"))] },
            response(headers: [Header(name: "Content-Type", value: "text/html")]),
            [problem("header content-TYPE", "contains 'json'", "'text/html'")]),
        VerdictCase(
            "matches passes",
            expecting { $0.headers = [HeaderExpectation(name: "X-Request-Id", matcher: .matches("^[0-9a-f-]{36}$"))] },
            response(headers: [Header(name: "X-Request-Id", value: "0b4cbd1c-7e0c-4a57-9a1b-5f0a9d2a11e3")])),
        VerdictCase(
            "matches fails",
            expecting { $0.headers = [HeaderExpectation(name: "X-Request-Id", matcher: .matches("^[0-9a-f-]{36}$"))] },
            response(headers: [Header(name: "X-Request-Id", value: "req-17")]),
            [problem("header X-Request-Id", "matches '^[0-9a-f-]{36}$'", "'req-17'")]),
        VerdictCase(
            "missing header is reported as absent",
            expecting { $0.headers = [HeaderExpectation(name: "X-Request-Id", matcher: .contains("-"))] },
            response(headers: [Header(name: "Content-Type", value: "text/plain")]),
            [problem("header X-Request-Id", "contains '-'", "absent")]),
        VerdictCase(
            "absent passes when missing",
            expecting { $0.headers = [HeaderExpectation(name: "X-Debug", matcher: .absent)] },
            response(headers: [Header(name: "Content-Type", value: "text/plain")])),
        VerdictCase(
            "absent fails with the value present",
            expecting { $0.headers = [HeaderExpectation(name: "X-Debug", matcher: .absent)] },
            response(headers: [Header(name: "x-debug", value: "1")]),
            [problem("header X-Debug", "absent", "'1'")]),
        VerdictCase(
            "absent fails listing every value present",
            expecting { $0.headers = [HeaderExpectation(name: "Via", matcher: .absent)] },
            response(headers: [Header(name: "Via", value: "1.1 edge"), Header(name: "Server", value: "x"), Header(name: "via", value: "1.1 origin")]),
            [problem("header Via", "absent", "'1.1 edge', '1.1 origin'")]),
        VerdictCase(
            "multi-valued: any value satisfying passes",
            expecting { $0.headers = [HeaderExpectation(name: "Set-Cookie", matcher: .contains("session="))] },
            response(headers: [Header(name: "Set-Cookie", value: "lang=en"), Header(name: "set-cookie", value: "session=abc; HttpOnly")])),
        VerdictCase(
            "multi-valued: none satisfying lists them all",
            expecting { $0.headers = [HeaderExpectation(name: "Set-Cookie", matcher: .equals("session=abc"))] },
            response(headers: [Header(name: "Set-Cookie", value: "lang=en"), Header(name: "Set-Cookie", value: "theme=dark")]),
            [problem("header Set-Cookie", "equals 'session=abc'", "'lang=en', 'theme=dark'")]),
        VerdictCase(
            "control characters are escaped",
            expecting { $0.headers = [HeaderExpectation(name: "X-Odd", matcher: .equals("ab"))] },
            response(headers: [Header(name: "X-Odd", value: "a\u{1}b")]),
            [problem("header X-Odd", "equals 'ab'", "'a\\u{1}b'")]),
        VerdictCase(
            "a pattern that does not compile is a problem, not a crash",
            expecting { $0.headers = [HeaderExpectation(name: "X-Id", matcher: .matches("a(b"))] },
            response(headers: [Header(name: "X-Id", value: "ab")]),
            [problem("header X-Id", "matches 'a(b'", "invalid regular expression: expected ')'")]),
        VerdictCase(
            "headers are reported in plan order",
            expecting {
                $0.headers = [
                    HeaderExpectation(name: "B", matcher: .equals("2")),
                    HeaderExpectation(name: "A", matcher: .equals("1")),
                ]
            },
            response(headers: [Header(name: "A", value: "x"), Header(name: "B", value: "y")]),
            [problem("header B", "equals '2'", "'y'"), problem("header A", "equals '1'", "'x'")]),
    ]

    @Test(arguments: headerCases)
    func headers(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    // MARK: Body (text and hash; json has its own file)

    /// SHA-256 of `abc`, i.e. of the captured prefix in the truncated rows below.
    static let shaOfABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    /// Stands for the whole body's hash, as Transport counts it while streaming.
    static let shaOfWhole = "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"

    static let bodyCases: [VerdictCase] = [
        VerdictCase(
            "contains passes", expecting { $0.body = [.contains("token")] },
            response(body: #"{"token":"t-1"}"#)),
        VerdictCase(
            "contains fails with excerpt and length", expecting { $0.body = [.contains("token")] },
            response(body: #"{"error":"nope"}"#),
            [problem("body", "contains 'token'", #"'{"error":"nope"}' (16 bytes)"#)]),
        VerdictCase(
            "contains is byte-exact (LF inside CRLF)", expecting { $0.body = [.contains("\n")] },
            response(body: "a\r\nb")),
        VerdictCase(
            "contains finds text in a body that is not UTF-8",
            expecting { $0.body = [.contains("PNG")] },
            ObservedResponse(status: 200, body: Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0x0D]))),
        VerdictCase(
            "contains on a truncated body says what was checked",
            expecting { $0.body = [.contains("end")] },
            response(body: "abc", bodyLength: 5000),
            [problem("body", "contains 'end'", "'abc' (5000 bytes; only the first 3 bytes were checked)")]),
        VerdictCase("equals passes", expecting { $0.body = [.equals("ok\n")] }, response(body: "ok\n")),
        VerdictCase(
            "equals fails, control characters escaped", expecting { $0.body = [.equals("ok")] },
            response(body: "ok\n\t\u{0}"),
            [problem("body", "equals 'ok'", "'ok\\n\\t\\u{0}' (5 bytes)")]),
        VerdictCase(
            "equals never passes on a truncated body", expecting { $0.body = [.equals("abc")] },
            response(body: "abc", bodyLength: 10),
            [problem("body", "equals 'abc'", "'abc' (10 bytes; only the first 3 bytes were checked)")]),
        VerdictCase(
            "empty body", expecting { $0.body = [.contains("x")] }, response(body: ""),
            [problem("body", "contains 'x'", "'' (0 bytes)")]),
        VerdictCase(
            "long body excerpt is cut at 120 characters",
            expecting { $0.body = [.contains("y")] },
            response(body: String(repeating: "x", count: 200)),
            [problem("body", "contains 'y'", "'\(String(repeating: "x", count: 120))…' (200 bytes)")]),
        VerdictCase(
            "matches passes", expecting { $0.body = [.matches(#""id":\s*\d+"#)] },
            response(body: #"{"id": 42}"#)),
        VerdictCase(
            "matches fails", expecting { $0.body = [.matches("^ok$")] }, response(body: "ko"),
            [problem("body", "matches '^ok$'", "'ko' (2 bytes)")]),
        VerdictCase(
            "invalid pattern on the body", expecting { $0.body = [.matches("[z-a]")] }, response(body: "ok"),
            [
                problem(
                    "body", "matches '[z-a]'", "invalid regular expression: character 'z' must compare less than or equal to 'a'")
            ]),
        VerdictCase(
            "sha256 compares the whole-body hash, not the prefix",
            expecting { $0.body = [.sha256(shaOfWhole)] },
            response(body: "abc", bodyLength: 5000, sha256: shaOfWhole)),
        VerdictCase(
            "sha256 in capitals still matches",
            expecting { $0.body = [.sha256(shaOfWhole.uppercased())] },
            response(body: "abc", bodyLength: 5000, sha256: shaOfWhole)),
        VerdictCase(
            "sha256 of the prefix does not match a longer body",
            expecting { $0.body = [.sha256(shaOfABC)] },
            response(body: "abc", bodyLength: 5000, sha256: shaOfWhole),
            [problem("body", "sha256 \(shaOfABC)", "sha256 \(shaOfWhole) (5000 bytes)")]),
        VerdictCase(
            "every body matcher reported, in plan order",
            expecting { $0.body = [.contains("b"), .equals("a"), .contains("z")] },
            response(body: "ab"),
            [
                problem("body", "equals 'a'", "'ab' (2 bytes)"),
                problem("body", "contains 'z'", "'ab' (2 bytes)"),
            ]),
    ]

    @Test(arguments: bodyCases)
    func body(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    // MARK: Certificate

    static let certificateCases: [VerdictCase] = [
        VerdictCase(
            "days left below the minimum",
            expecting { $0.certificate = certificate { $0.minDaysLeft = 14 } },
            response(certificate: labCertificate()),
            [problem("certificate days left", "≥ 14", "3 (expires 2026-11-24T10:00:00Z)")]),
        VerdictCase(
            "days left at the minimum passes (3 days and an hour)",
            expecting { $0.certificate = certificate { $0.minDaysLeft = 3 } },
            response(certificate: labCertificate())),
        VerdictCase(
            "a second short of 14 days counts as 13",
            expecting { $0.certificate = certificate { $0.minDaysLeft = 14 } },
            response(certificate: labCertificate(notAfter: verdictNow.addingTimeInterval(14 * 86_400 - 1))),
            [problem("certificate days left", "≥ 14", "13 (expires 2026-12-05T08:59:59Z)")]),
        VerdictCase(
            "expired certificate",
            expecting { $0.certificate = certificate { $0.minDaysLeft = 0 } },
            response(certificate: labCertificate(notAfter: verdictNow.addingTimeInterval(-3_600))),
            [problem("certificate days left", "≥ 0", "-1 (expired 2026-11-21T08:00:00Z)")]),
        VerdictCase(
            "certificate without expiry date",
            expecting { $0.certificate = certificate { $0.minDaysLeft = 1 } },
            response(certificate: labCertificate(notAfter: nil)),
            [problem("certificate days left", "≥ 1", "unknown (the certificate has no expiry date)")]),
        VerdictCase(
            "plain HTTP has no certificate",
            expecting {
                $0.certificate = certificate {
                    $0.minDaysLeft = 14
                    $0.issuer = .contains("Let's Encrypt")
                }
            },
            response(certificate: nil),
            [
                problem("certificate days left", "≥ 14", "no certificate (not a TLS connection)"),
                problem("certificate issuer", "contains 'Let's Encrypt'", "no certificate (not a TLS connection)"),
            ]),
        VerdictCase(
            "issuer contains passes",
            expecting { $0.certificate = certificate { $0.issuer = .contains("Runner Lab CA") } },
            response(certificate: labCertificate())),
        VerdictCase(
            "issuer contains fails with the RFC 2253 issuer",
            expecting { $0.certificate = certificate { $0.issuer = .contains("Let's Encrypt") } },
            response(certificate: labCertificate()),
            [problem("certificate issuer", "contains 'Let's Encrypt'", "'CN=Runner Lab CA,O=runner lab'")]),
        VerdictCase(
            "subject equals passes",
            expecting { $0.certificate = certificate { $0.subject = .equals("CN=api.lab.test,O=runner lab") } },
            response(certificate: labCertificate())),
        VerdictCase(
            "subject matches fails",
            expecting { $0.certificate = certificate { $0.subject = .matches("^CN=www\\.") } },
            response(certificate: labCertificate()),
            [problem("certificate subject", "matches '^CN=www\\.'", "'CN=api.lab.test,O=runner lab'")]),
        VerdictCase(
            "days, issuer and subject reported together in that order",
            expecting {
                $0.certificate = certificate {
                    $0.subject = .contains("www")
                    $0.issuer = .contains("DigiCert")
                    $0.minDaysLeft = 30
                }
            },
            response(certificate: labCertificate()),
            [
                problem("certificate days left", "≥ 30", "3 (expires 2026-11-24T10:00:00Z)"),
                problem("certificate issuer", "contains 'DigiCert'", "'CN=Runner Lab CA,O=runner lab'"),
                problem("certificate subject", "contains 'www'", "'CN=api.lab.test,O=runner lab'"),
            ]),
    ]

    @Test(arguments: certificateCases)
    func certificate(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    static func certificate(_ configure: (inout CertificateExpectation) -> Void) -> CertificateExpectation {
        var expectation = CertificateExpectation()
        configure(&expectation)
        return expectation
    }

    // MARK: Time

    static let timeCases: [VerdictCase] = [
        VerdictCase(
            "total over the limit", expecting { $0.time.total = .milliseconds(800) },
            response(totalTime: .seconds(1.234)),
            [problem("time total", "≤ 800 ms", "1234 ms")]),
        VerdictCase(
            "total exactly at the limit passes", expecting { $0.time.total = .milliseconds(800) },
            response(totalTime: .seconds(0.8))),
        VerdictCase(
            "total is the whole result's, not the final hop's",
            expecting { $0.time.total = .seconds(1) },
            response(timings: Timings(total: .seconds(0.1)), totalTime: .seconds(2.0)),
            [problem("time total", "≤ 1000 ms", "2000 ms")]),
        VerdictCase(
            "just over the limit is not rounded down to it", expecting { $0.time.total = .milliseconds(800) },
            response(totalTime: .seconds(0.8004)),
            [problem("time total", "≤ 800 ms", "800.4 ms")]),
        VerdictCase(
            "fractional limits are exact", expecting { $0.time.total = .milliseconds(1500) },
            response(totalTime: .seconds(1.75)),
            [problem("time total", "≤ 1500 ms", "1750 ms")]),
        VerdictCase(
            "connect over the limit", expecting { $0.time.connect = .milliseconds(100) },
            response(timings: Timings(connect: .seconds(0.25))),
            [problem("time connect", "≤ 100 ms", "250 ms")]),
        VerdictCase(
            "connect within the limit", expecting { $0.time.connect = .milliseconds(100) },
            response(timings: Timings(connect: .seconds(0.012)))),
        VerdictCase(
            "tls over the limit, sub-10 ms shown with a decimal", expecting { $0.time.tls = .microseconds(5_500) },
            response(timings: Timings(tls: .seconds(0.0071))),
            [problem("time tls", "≤ 5.5 ms", "7.1 ms")]),
        VerdictCase(
            "tls missing (reused connection) counts as 0", expecting { $0.time.tls = .milliseconds(1) },
            response(timings: Timings(connect: nil, tls: nil, firstByte: .seconds(0.0005)))),
        VerdictCase(
            "first byte over the limit", expecting { $0.time.firstByte = .milliseconds(500) },
            response(timings: Timings(firstByte: .seconds(0.61))),
            [problem("time first_byte", "≤ 500 ms", "610 ms")]),
        VerdictCase(
            "every phase reported in order total, connect, tls, first_byte",
            expecting {
                $0.time.firstByte = .milliseconds(10)
                $0.time.tls = .milliseconds(10)
                $0.time.connect = .milliseconds(10)
                $0.time.total = .milliseconds(10)
            },
            response(timings: Timings(connect: .seconds(0.02), tls: .seconds(0.03), firstByte: .seconds(0.04)), totalTime: .seconds(0.05)),
            [
                problem("time total", "≤ 10 ms", "50 ms"),
                problem("time connect", "≤ 10 ms", "20 ms"),
                problem("time tls", "≤ 10 ms", "30 ms"),
                problem("time first_byte", "≤ 10 ms", "40 ms"),
            ]),
    ]

    @Test(arguments: timeCases)
    func time(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    // MARK: HTTP version and redirects

    static let versionAndRedirectCases: [VerdictCase] = [
        VerdictCase("http_version passes", expecting { $0.httpVersion = "2" }, response(httpVersion: "2")),
        VerdictCase("http_version 2.0 is 2", expecting { $0.httpVersion = "2.0" }, response(httpVersion: "2")),
        VerdictCase(
            "http_version fails", expecting { $0.httpVersion = "2" }, response(httpVersion: "1.1"),
            [problem("http_version", "2", "1.1")]),
        VerdictCase(
            "http_version unknown", expecting { $0.httpVersion = "1.1" }, response(httpVersion: nil),
            [problem("http_version", "1.1", "unknown")]),
        VerdictCase("redirects pass", expecting { $0.redirects = 2 }, response(redirects: 2)),
        VerdictCase(
            "redirects fail", expecting { $0.redirects = 0 }, response(redirects: 2),
            [problem("redirects", "0", "2")]),
        VerdictCase("redirects unchecked by default", expecting(), response(redirects: 7)),
    ]

    @Test(arguments: versionAndRedirectCases)
    func versionAndRedirects(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    // MARK: Everything at once

    @Test("all problems are reported together, in the documented order")
    func allTogether() {
        let expect = expecting {
            $0.redirects = 0
            $0.httpVersion = "2"
            $0.time.total = .milliseconds(800)
            $0.certificate = Self.certificate { $0.minDaysLeft = 14 }
            $0.body = [.contains("token"), .json([JSONExpectation(path: jsonPath("$.ok", .member("ok")), value: .bool(true))])]
            $0.headers = [
                HeaderExpectation(name: "Content-Type", matcher: .contains("json")),
                HeaderExpectation(name: "X-Debug", matcher: .absent),
            ]
            $0.status = .codes([200])
        }
        let observed = response(
            status: 404, headers: [Header(name: "Content-Type", value: "text/plain"), Header(name: "X-Debug", value: "on")],
            body: #"{"ok":false}"#, httpVersion: "1.1", certificate: labCertificate(),
            totalTime: .seconds(1.234), redirects: 2)

        let problems = ExpectationChecker.problems(for: expect, observed: observed, now: verdictNow)

        #expect(
            problems == [
                problem("status", "200", "404"),
                problem("header Content-Type", "contains 'json'", "'text/plain'"),
                problem("header X-Debug", "absent", "'on'"),
                problem("body", "contains 'token'", #"'{"ok":false}' (12 bytes)"#),
                problem("body json $.ok", "true", "false"),
                problem("certificate days left", "≥ 14", "3 (expires 2026-11-24T10:00:00Z)"),
                problem("time total", "≤ 800 ms", "1234 ms"),
                problem("http_version", "2", "1.1"),
                problem("redirects", "0", "2"),
            ])
        #expect(problems.first?.description == "status: expected 200, got 404")
    }

    @Test("a response meeting every expectation has no problems")
    func allMet() {
        let expect = expecting {
            $0.redirects = 1
            $0.httpVersion = "2"
            $0.time.total = .milliseconds(800)
            $0.time.tls = .milliseconds(100)
            $0.certificate = Self.certificate {
                $0.minDaysLeft = 2
                $0.issuer = .contains("Runner Lab")
            }
            $0.body = [.contains("probe"), .json([JSONExpectation(path: jsonPath("$.user", .member("user")), value: .string("probe"))])]
            $0.headers = [HeaderExpectation(name: "content-type", matcher: .equals("application/json"))]
            $0.status = .codes([200, 201])
        }
        let observed = response(
            status: 201, headers: [Header(name: "Content-Type", value: "application/json")], body: #"{"user":"probe"}"#,
            httpVersion: "2", certificate: labCertificate(), timings: Timings(tls: .seconds(0.02)),
            totalTime: .seconds(0.3), redirects: 1)

        #expect(ExpectationChecker.problems(for: expect, observed: observed, now: verdictNow).isEmpty)
    }

    // MARK: Building the observation

    @Test("ObservedResponse takes the final hop's transfer and the result's totals")
    func observedFromTransfer() {
        let transfer = TransferResponse(
            status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: Data("abc".utf8),
            bodyLength: 5000, bodySHA256: Self.shaOfWhole)
        let evidence = TransferEvidence(
            connectedIP: "127.0.0.2", connectedPort: 8443, httpVersion: "2", certificate: labCertificate(),
            timings: Timings(connect: .seconds(0.001), tls: .seconds(0.004), firstByte: .seconds(0.009), total: .seconds(0.01)), newConnections: 1)

        let observed = ObservedResponse(response: transfer, evidence: evidence, totalTime: .seconds(0.5), redirects: 2)

        #expect(observed.status == 200)
        #expect(observed.headers.map(\.name) == ["Content-Type"])
        #expect(observed.body == Data("abc".utf8))
        #expect(observed.bodyLength == 5000)
        #expect(observed.bodyTruncated)
        #expect(observed.bodySHA256 == Self.shaOfWhole)
        #expect(observed.httpVersion == "2")
        #expect(observed.certificate == labCertificate())
        #expect(observed.timings == Timings(connect: .seconds(0.001), tls: .seconds(0.004), firstByte: .seconds(0.009), total: .seconds(0.01)))
        #expect(observed.totalTime == .seconds(0.5))
        #expect(observed.redirects == 2)
    }
}
