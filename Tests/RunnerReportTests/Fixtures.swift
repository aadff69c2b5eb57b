import Foundation
import RunnerAppTrust
import RunnerResults
import RunnerVocabulary

/// Hand-built results covering every outcome, two suites, an insecure result, secrets in every
/// kind of field and hostile strings.
enum Fixture {
    static let secret = "tok-9f8e7d6c5b4a"
    /// A secret made of XML/JSON metacharacters: it must be masked before any escaping.
    static let markupSecret = "p&ss<w>\"rd'"
    static let redactor = Redactor(secrets: [secret, markupSecret])

    /// Markup, quotes, C0 controls (NUL, BEL, ESC), DEL, a C1 control, emoji, the XML
    /// non-characters U+FFFE/U+FFFF and a CDATA terminator.
    static let hostile = "weird <&\"'> \u{0}\u{7}\u{1B}[31mred\u{7F}\u{85} 🚀👩‍💻 \u{FFFE}\u{FFFF} ]]> a\r\nb\tc"

    /// 2024-05-01T10:00:00Z
    static let start = Date(timeIntervalSince1970: 1_714_557_600)
    /// 2025-06-30T23:59:59Z
    static let notAfter = Date(timeIntervalSince1970: 1_751_327_999)

    static func run(interruptedBy: Int32? = nil) -> RecordedRun {
        RecordedRun(suites: [prod, staging], startedAt: start, duration: .seconds(2.5), interruptedBy: interruptedBy)
    }

    /// What a state file on a full disk says of the run (two answers of `prod.eu`).
    static let stateNotRecorded = StateRecording(
        file: "/var/lib/runner/state.db", problems: ["the disk is full (database or disk is full)"],
        notRecorded: [
            AnswerKey(plan: "prod.eu", map: "tencent", host: "api.example.com", client: nil),
            AnswerKey(plan: "prod.eu", map: "ali", host: "cdn.example.com", client: "gd-mobile"),
        ])

    /// An Android app's rules for api.example.com, from its Network Security Config, its pins
    /// matching the chain.
    static let appPolicy = AppPolicyEvidence(
        app: "shop-android", host: "api.example.com", keyedOn: .name, key: "api.example.com",
        policy: AppTrustPolicy(
            platform: .android, source: AppTrustSource(file: "app/network_security_config.xml", line: 4), cleartextPermitted: false,
            anchors: ["system"], pins: [String(repeating: "A", count: 43) + "="], pinsExpire: "2027-01-01", pinsEnforced: true,
            whyNotEnforced: nil),
        pinCheck: "matched " + String(repeating: "A", count: 43) + "=")

    static let appWarning = AppWarning(
        kind: .noBackupPin, app: "shop-android",
        message: "the android pins for api.example.com match only the leaf served now: a new key on this edge fails every connection of the app")

    /// A pick with every part: gd-mobile's SDK ranks 127.0.0.2 fastest; sh-telecom's answer held
    /// it too, but its apps use 127.0.0.9; the ranking connected to one and not the other.
    static let pick = PickEvidence(
        map: "ali", host: "api.lab.test", sdk: "alibaba-ios",
        pickers: [PickEvidence.Picker(client: "gd-mobile", reason: "fastest connect, 0.3 ms")],
        elsewhere: [PickEvidence.Elsewhere(client: "sh-telecom", addresses: ["127.0.0.9"])],
        connects: [
            PickEvidence.RankingConnect(address: "127.0.0.2", port: 8443, time: .microseconds(312), error: nil),
            PickEvidence.RankingConnect(address: "127.0.0.9", port: 8443, time: nil, error: "connection refused"),
        ])

    static let prod = RecordedSuite(
        name: "prod.eu", file: "plans/prod.eu.yaml", startedAt: start, duration: .seconds(1.25), hostname: "ci-01",
        properties: [
            Property(name: "runner.version", value: "1.0.0"),
            Property(name: "plan", value: "plans/prod.eu.yaml"),
            Property(name: "domains.builtin", value: "api.example.com: 203.0.113.10, 203.0.113.11"),
            Property(name: "domains.tencent", value: "http://119.29.29.29/d?dn=api.example.com&key=\(secret)"),
        ],
        results: [passed, failed, errored])

    static let staging = RecordedSuite(
        name: "staging", file: "plans/staging.yaml", startedAt: start.addingTimeInterval(2), duration: .seconds(1.0),
        hostname: "ci-01", properties: [Property(name: "runner.version", value: "1.0.0")],
        results: [skipped, insecure, hostileResult])

    /// A passing result around `evidence`, for a test about the evidence alone.
    static func result(_ evidence: Evidence) -> ScenarioResult {
        ScenarioResult(
            scenario: "evidence", strategy: evidence.strategy, ip: nil, tags: [], outcome: .passed, evidence: evidence,
            duration: .seconds(0))
    }

    static let passed = ScenarioResult(
        scenario: "login over SNI", strategy: .sniResolve, ip: "203.0.113.10", tags: ["login", "critical"],
        outcome: .passed,
        evidence: Evidence(
            strategy: .sniResolve, ipSource: "static map 'builtin'", insecure: false,
            hops: [loginHop]),
        duration: .seconds(0.123))

    static var loginHop: HopEvidence {
        var hop = HopEvidence(
            method: "POST", originalURL: "https://api.example.com/v1/login",
            urlSent: "https://api.example.com/v1/login", hostHeader: "api.example.com", sni: "api.example.com",
            pinnedIP: "203.0.113.10", strategy: .sniResolve,
            timings: Timings(resolve: .seconds(0.0001), connect: .seconds(0.0012), tls: .seconds(0.0054), firstByte: .seconds(0.0801), total: .seconds(0.0823)))
        hop.connectedIP = "203.0.113.10"
        hop.connectedPort = 443
        hop.httpVersion = "2"
        hop.status = 200
        hop.certificate = CertificateSummary(
            subject: "CN=api.example.com", issuer: "CN=Lab CA", notAfter: notAfter,
            subjectAltNames: ["api.example.com", "www.example.com"], serialNumber: "1a2b3c",
            sha256Fingerprint: String(repeating: "0f", count: 32))
        hop.tls = TLSSession(
            version: .v1_3, cipher: "TLS_AES_256_GCM_SHA384", chainVerified: true,
            chain: [
                ChainCertificate(
                    subject: "CN=api.example.com", spkiSHA256: Array(repeating: 0xA1, count: 32), keyType: "EC", keyBits: 256,
                    signature: "ecdsa-with-SHA256", signatureDigest: "SHA256", notAfter: notAfter),
                // The CA expires first: the chain's earliest expiry is not the leaf's.
                ChainCertificate(
                    subject: "CN=Lab CA", spkiSHA256: Array(repeating: 0xC4, count: 32), keyType: "RSA", keyBits: 2048,
                    signature: "sha256WithRSAEncryption", signatureDigest: "SHA256", notAfter: notAfter.addingTimeInterval(-86_400)),
            ])
        hop.newConnection = true
        hop.contentLength = 27
        hop.bodyLength = 27
        hop.bodySHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        return hop
    }

    static let failed = ScenarioResult(
        scenario: "profile", strategy: .headerOnly, ip: "203.0.113.11", tags: [],
        outcome: .failed([
            Problem(subject: "status", expected: "200", actual: "404"),
            Problem(subject: "header Content-Type", expected: "contains \"json\"", actual: "text/html"),
            Problem(subject: "header X-Echo-Authorization", expected: "absent", actual: "Bearer \(secret)"),
        ]),
        evidence: Evidence(
            strategy: .headerOnly, ipSource: "httpdns 'tencent' (dnspod)", insecure: false,
            hops: [redirectHop, notFoundHop],
            notes: ["fell back to the system resolver for cdn.example.com; query had key=\(secret)"]),
        duration: .seconds(0.456))

    /// A resolver check's evidence (`resolver:`, `expect.dns`): one host, an answered and a
    /// failed question, a foreign address.
    static var skippedEvidence: Evidence {
        var evidence = Evidence(strategy: .system, ipSource: "resolver 192.0.2.53", insecure: false)
        var lookup = DNSLookupEvidence(
            resolver: "192.0.2.53", host: "api.example.com",
            questions: [
                DNSQuestionEvidence(
                    type: "A", rcode: "NOERROR", addresses: ["203.0.113.10", "198.51.100.66"], ttl: 60,
                    aliases: ["edge.example.net"], duration: .seconds(0.0021), problem: nil),
                DNSQuestionEvidence(
                    type: "AAAA", rcode: "NXDOMAIN", addresses: [], ttl: nil, aliases: [], duration: .seconds(0.0013),
                    problem: "no such name (NXDOMAIN)"),
            ])
        lookup.within = ["tencent"]
        lookup.foreign = ["198.51.100.66"]
        evidence.dns = [lookup]
        evidence.dnsNotChecked = "expect.dns not checked: the addresses came from static map 'builtin', not a resolver"
        return evidence
    }

    static var redirectHop: HopEvidence {
        var hop = HopEvidence(
            method: "GET", originalURL: "http://api.example.com/profile?token=\(secret)",
            urlSent: "http://203.0.113.11/profile?token=\(secret)", hostHeader: "api.example.com",
            sni: nil, pinnedIP: "203.0.113.11", strategy: .headerOnly, timings: Timings(connect: .seconds(0.002), firstByte: .seconds(0.01), total: .seconds(0.011)))
        hop.connectedIP = "203.0.113.11"
        hop.connectedPort = 80
        hop.httpVersion = "1.1"
        hop.status = 302
        hop.newConnection = true
        hop.bodyLength = 0
        hop.bodySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        return hop
    }

    static var notFoundHop: HopEvidence {
        var hop = HopEvidence(
            method: "GET", originalURL: "http://api.example.com/v2/profile",
            urlSent: "http://203.0.113.11/v2/profile", hostHeader: "api.example.com",
            sni: nil, pinnedIP: "203.0.113.11", strategy: .headerOnly, timings: Timings(firstByte: .seconds(0.003), total: .seconds(0.004)))
        hop.connectedIP = "203.0.113.11"
        hop.connectedPort = 80
        hop.httpVersion = "1.1"
        hop.status = 404
        hop.newConnection = false
        hop.bodyLength = 9
        hop.bodySHA256 = "0ab4f3bd0bd6a2c08c1dd0a5fd6eaef8fa5e1ff6b1e1c53b09de1a1b0d1f6b2d"
        return hop
    }

    static let errorMessage = "TLS handshake with 203.0.113.12:443 failed: certificate name mismatch (sent Authorization: Bearer \(secret))"
    static let diagnosis = "the server presents `default.lab.test` without SNI and `api.example.com` with it, so this endpoint needs `sni-resolve`"

    static let errored = ScenarioResult(
        scenario: "checkout", strategy: .trustOverride, ip: "203.0.113.12", tags: [],
        outcome: .errored(TransferError(kind: .tls, message: errorMessage, diagnosis: diagnosis)),
        evidence: Evidence(
            strategy: .trustOverride, ipSource: "static map 'builtin'", insecure: false,
            hops: [HopEvidence(
                method: "GET", originalURL: "https://api.example.com/checkout",
                urlSent: "https://203.0.113.12/checkout", hostHeader: "api.example.com", sni: nil,
                pinnedIP: "203.0.113.12", strategy: .trustOverride, timings: Timings(connect: .seconds(0.001)))]),
        duration: .seconds(0.05))

    static let skipped = ScenarioResult(
        scenario: "slow one", strategy: .system, ip: nil, tags: ["slow"],
        outcome: .skipped(reason: "not run: interrupted by SIGINT"),
        evidence: skippedEvidence,
        duration: .seconds(0))

    static let insecure = ScenarioResult(
        scenario: "legacy admin", strategy: .sniResolve, ip: "2001:db8::10", tags: [],
        outcome: .passed,
        evidence: Evidence(
            strategy: .sniResolve, ipSource: "static map 'builtin'", insecure: true,
            hops: [{
                var hop = HopEvidence(
                    method: "GET", originalURL: "https://v6.example.com/admin", urlSent: "https://v6.example.com/admin",
                    hostHeader: "v6.example.com", sni: "v6.example.com", pinnedIP: "2001:db8::10", strategy: .sniResolve,
                    timings: Timings(total: .seconds(0.2)))
                hop.connectedIP = "2001:db8::10"
                hop.connectedPort = 8443
                hop.httpVersion = "1.1"
                hop.status = 204
                return hop
            }()]),
        duration: .seconds(0.2))

    static let hostileResult = ScenarioResult(
        scenario: hostile, strategy: .sniResolve, ip: "203.0.113.10", tags: [hostile],
        outcome: .failed([
            Problem(subject: "body contains", expected: "<token> & \(markupSecret)", actual: hostile),
            Problem(subject: "header \(hostile)", expected: hostile, actual: "\u{1}\u{2}"),
        ]),
        evidence: Evidence(
            strategy: .sniResolve, ipSource: hostile, insecure: false,
            hops: [{
                var hop = HopEvidence(
                    method: "GET", originalURL: "https://api.example.com/\(hostile)",
                    urlSent: "https://api.example.com/?pw=\(markupSecret)", hostHeader: hostile, sni: hostile,
                    pinnedIP: "203.0.113.10", strategy: .sniResolve)
                hop.certificate = CertificateSummary(
                    subject: "CN=\(hostile)", issuer: "O=\(markupSecret)", notAfter: nil, subjectAltNames: [hostile])
                hop.httpVersion = hostile
                hop.bodySHA256 = hostile
                hop.bodyLength = 3
                return hop
            }()],
            notes: [hostile, "password \(markupSecret)"]),
        duration: .seconds(0.001))

    /// Every representation of the secrets that must not appear in any output.
    static let forbidden = [
        secret, markupSecret, "p&amp;ss", "ss&lt;w", "ss<w>", "p&ss", "ss\\u003cw",
    ]
}
