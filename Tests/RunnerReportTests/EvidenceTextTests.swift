import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

@Suite struct EvidenceTextTests {
    @Test func aTLSHopShowsEveryFact() {
        #expect(EvidenceText.lines(for: Fixture.passed, redactor: Fixture.redactor) == [
            "strategy: sni-resolve",
            "ip source: static map 'builtin'",
            "tags: login, critical",
            "hop 1: POST https://api.example.com/v1/login",
            "  url sent: https://api.example.com/v1/login",
            "  host: api.example.com",
            "  sni: api.example.com",
            "  pinned ip: 203.0.113.10",
            "  connected: 203.0.113.10:443",
            "  address family: IPv4",
            "  http version: 2",
            "  status: 200",
            "  certificate: subject CN=api.example.com; issuer CN=Lab CA; expires 2025-06-30T23:59:59Z",
            "  certificate names: api.example.com, www.example.com",
            "  tls: TLS 1.3, TLS_AES_256_GCM_SHA384",
            "  chain 0: CN=api.example.com; EC 256; ecdsa-with-SHA256; sha256/oaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaE=",
            "  chain 1: CN=Lab CA; RSA 2048; sha256WithRSAEncryption; sha256/xMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMQ=",
            "  timings: resolve 0.100 ms, connect 1.200 ms, tls 5.400 ms, first byte 80.100 ms, total 82.300 ms",
            "  connection: new",
            "  body: 27 bytes, sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ])
    }

    @Test func redirectsNotesAndSecretsInURLs() {
        let lines = EvidenceText.lines(for: Fixture.failed, redactor: Fixture.redactor)
        #expect(lines.contains("hop 1: GET http://api.example.com/profile?token=***"))
        #expect(lines.contains("  url sent: http://203.0.113.11/profile?token=***"))
        #expect(lines.contains("  sni: none"))
        #expect(lines.contains("  status: 302"))
        #expect(lines.contains("hop 2: GET http://api.example.com/v2/profile"))
        #expect(lines.contains("  connection: reused"))
        #expect(lines.contains("  timings: first byte 3.000 ms, total 4.000 ms"))
        #expect(lines.last == "note: fell back to the system resolver for cdn.example.com; query had key=***")
    }

    @Test func whatDidNotHappenIsSaid() {
        let lines = EvidenceText.lines(for: Fixture.errored, redactor: Fixture.redactor)
        #expect(Array(lines[3...]) == [
            "  url sent: https://203.0.113.12/checkout",
            "  host: api.example.com",
            "  sni: none",
            "  pinned ip: 203.0.113.12",
            "  connected: not connected",
            "  http version: none",
            "  status: no response",
            "  certificate: none",
            "  timings: connect 1.000 ms",
            "  connection: unknown",
            "  body: none received",
            // A result that did not pass says how to send its request again.
            "  curl: curl -g -sS -i -H 'Host: api.example.com' 'https://203.0.113.12/checkout'",
        ])
    }

    @Test func insecureComesFirst() {
        let lines = EvidenceText.lines(for: Fixture.insecure, redactor: Fixture.redactor)
        #expect(lines.first == "INSECURE: certificate verification was skipped (insecure: true)")
    }

    @Test func aSecretSpanningTwoValuesIsMasked() {
        var hop = HopEvidence(
            method: "GET", originalURL: "https://a.test/", urlSent: "https://a.test/", hostHeader: "a.test",
            sni: "a.test", pinnedIP: "10.0.0.1", strategy: .sniResolve)
        hop.connectedIP = "10.0.0.1"
        hop.connectedPort = 8443
        let evidence = Evidence(strategy: .sniResolve, ipSource: "x", insecure: false, hops: [hop])
        let lines = EvidenceText.lines(for: Fixture.result(evidence), redactor: Redactor(secrets: ["10.0.0.1:8443"]))
        #expect(lines.contains("  connected: ***"))
    }

    @Test func everyValueStaysOnItsLine() {
        let lines = EvidenceText.lines(for: Fixture.hostileResult, redactor: Fixture.redactor)
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(lines.contains("  certificate: subject CN=\(PlainText.singleLine(Fixture.hostile)); issuer O=***; expires unknown"))
    }
}

@Suite struct FormatTests {
    @Test(arguments: [
        (0.0, "0.000"), (1.5, "1.500"), (12.3456, "12.346"), (3600, "3600.000"), (0.0004, "0.000"),
        (-1, "0.000"), (.nan, "0.000"), (.infinity, "0.000"), (1e20, "1000000000000.000"),
    ])
    func secondsHaveThreeDecimals(value: Double, expected: String) {
        #expect(Format.seconds(value) == expected)
    }

    @Test(arguments: [(0.25, "250 ms"), (0.9994, "999 ms"), (1.0, "1.00 s"), (12.345, "12.35 s")])
    func humanDurations(value: Double, expected: String) {
        #expect(Format.human(value) == expected)
    }

    @Test func controlCharactersBecomeEscapes() {
        #expect(PlainText.singleLine("a\nb\r\tc\u{1B}[0m\u{0}\u{7F}\u{2028}é🚀") == "a\\nb\\r\\tc\\u{1B}[0m\\u{0}\\u{7F}\\u{2028}é🚀")
    }
}

@Suite("Report formatting helpers")
struct FormatHelperTests {
    /// The hand-made ISO 8601 stamp agrees with Foundation's from 1600 to 2400 (before the
    /// Gregorian reform Foundation switches to the Julian calendar; ISO 8601 and gmtime stay
    /// Gregorian).
    @Test func timestampsMatchFoundationsISO8601() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double.random(in: -11_000_000_000...13_500_000_000, using: &random)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Format.timestamp(date) == date.formatted(Date.ISO8601FormatStyle()), "\(seconds)")
        }
        #expect(Format.timestamp(Date(timeIntervalSince1970: 1_714_557_600.9)) == "2024-05-01T10:00:00Z")
    }

    @Test(arguments: [
        ("plain ascii", "plain ascii"), ("tab\there", "tab\\there"), ("bell\u{7}", "bell\\u{7}"),
        ("café ok", "café ok"), ("line\u{2028}sep", "line\\u{2028}sep"), ("del\u{7F}", "del\\u{7F}"),
    ])
    func singleLineEscapesOnlyControls(input: String, expected: String) {
        #expect(PlainText.singleLine(input) == expected)
    }

    @Test(arguments: [
        ("a<b & \"c\"", "a&lt;b &amp; &quot;c&quot;"), ("plain", "plain"), ("tab\tnl\n", "tab&#9;nl&#10;"),
        ("ünï", "ünï"), ("nul\u{0}", "nul\u{FFFD}"),
    ])
    func attributesEscapeMarkupAndWhitespace(input: String, expected: String) {
        #expect(MarkupEscaper.xmlAttribute.escaped(input) == expected)
    }
}

/// What the TLS line says of the chain: as verified, as presented (verification off), or
/// nothing when a failed handshake left none.
@Suite struct EvidenceTLSLineTests {
    static func lines(_ session: TLSSession) -> [String] {
        var hop = Fixture.loginHop
        hop.tls = session
        var evidence = Fixture.passed.evidence
        evidence.hops = [hop]
        return EvidenceText.lines(for: Fixture.result(evidence), redactor: Fixture.redactor).filter { $0.hasPrefix("  tls: ") }
    }

    @Test func theChainIsSaidUnverifiedOnlyWhenItIs() {
        let leaf = ChainCertificate(
            subject: "CN=a", spkiSHA256: Array(repeating: 1, count: 32), keyType: "EC", keyBits: 256, signature: "ecdsa-with-SHA256",
            signatureDigest: "SHA256")
        #expect(Self.lines(TLSSession(version: .v1_2, cipher: "X", chainVerified: false, chain: [leaf]))
            == ["  tls: TLS 1.2, X; chain as presented (verification was off)"])
        #expect(Self.lines(TLSSession(version: .v1_2, cipher: "X", chainVerified: false, chain: [])) == ["  tls: TLS 1.2, X"])
        #expect(Self.lines(TLSSession(version: nil, cipher: "X", chainVerified: true, chain: [leaf])) == ["  tls: unknown version, X"])
    }
}
