import Testing

@testable import RunnerAppTrust

/// OkHttp `CertificatePinner` patterns: `*.` one label, `**.` any, exact, and IP hosts.
@Suite("OkHttp CertificatePinner pins")
struct OkHttpPinsTests {
    static func pins() throws -> OkHttpPins {
        try OkHttpPins(patterns: [
            (pattern: "api.example.com", pins: ["sha256/\(TestPins.a)"]),
            (pattern: "*.Example.com", pins: ["sha256/\(TestPins.b)", "sha1/\(TestPins.sha1)"]),
            (pattern: "**.cdn.example.com", pins: ["sha256/\(TestPins.c)"]),
            (pattern: "203.0.113.7", pins: ["sha256/\(TestPins.d)"]),
        ])
    }

    @Test("every pin whose pattern matches", arguments: [
        ("api.example.com", [TestPins.a, TestPins.b], 1),
        ("API.Example.com.", [TestPins.a, TestPins.b], 1),
        ("www.example.com", [TestPins.b], 2),
        // `*.` is exactly one label, possibly empty.
        (".example.com", [TestPins.b], 2),
        ("a.www.example.com", [], nil),
        ("example.com", [], nil),
        // `**.` is zero or more labels.
        ("cdn.example.com", [TestPins.c, TestPins.b], 2),
        ("a.b.cdn.example.com", [TestPins.c], 3),
        ("xcdn.example.com", [TestPins.b], 2),
        // An IP host matches only a pattern written as that address.
        ("203.0.113.7", [TestPins.d], 4),
        ("203.0.113.8", [], nil),
    ] as [(String, [String], Int?)])
    func matching(host: String, expected: [String], line: Int?) throws {
        let policy = try Self.pins().policy(for: host)
        #expect(Set(policy.pins) == Set(expected))
        #expect(policy.pinsEnforced == !expected.isEmpty || !policy.sha1Pins.isEmpty)
        #expect(policy.source?.line == line)
        #expect(policy.platform == .okhttp)
    }

    @Test("sha1 pins are kept apart and match a chain's SHA-1 values")
    func sha1() throws {
        let policy = try Self.pins().policy(for: "www.example.com")
        #expect(policy.sha1Pins == [TestPins.sha1])
        let chain = [AppTrustChainCertificate(spkiSHA256: TestPins.e, spkiSHA1: TestPins.sha1, isLeaf: true)]
        #expect(policy.check(chain: chain) == .matched(pin: "sha1/\(TestPins.sha1)"))
    }

    @Test("no matching pattern: nothing checked")
    func nothingChecked() throws {
        let policy = try Self.pins().policy(for: "other.example")
        #expect(policy.check(chain: [AppTrustChainCertificate(spkiSHA256: TestPins.e, isLeaf: true)]) == .notChecked(.noPins))
    }

    @Test("what CertificatePinner refuses", arguments: [
        ("a.*.example.com", "sha256/\(TestPins.a)", #"okhttp pins "a.*.example.com": error: unexpected pattern: a.*.example.com (`*` only as a leading `*.` or `**.`)"#),
        ("*example.com", "sha256/\(TestPins.a)", #"okhttp pins "*example.com": error: unexpected pattern: *example.com (`*` only as a leading `*.` or `**.`)"#),
        ("***.example.com", "sha256/\(TestPins.a)", #"okhttp pins "***.example.com": error: unexpected pattern: ***.example.com (`*` only as a leading `*.` or `**.`)"#),
        ("*.", "sha256/\(TestPins.a)", #"okhttp pins "*.": error: invalid pattern: *."#),
        ("example.com", "md5/\(TestPins.a)", #"okhttp pins "example.com" pin 0: error: pins must start with 'sha256/' or 'sha1/': md5/"# + TestPins.a),
        ("example.com", "sha256/not*base64", #"okhttp pins "example.com" pin 0: error: invalid pin hash: sha256/not*base64 (not base64)"#),
        ("example.com", "sha256/\(TestPins.sha1)", #"okhttp pins "example.com" pin 0: error: invalid pin hash: sha256/"# + TestPins.sha1 + " (20 bytes, a sha256 digest is 32)"),
        ("example.com", "sha1/\(TestPins.a)", #"okhttp pins "example.com" pin 0: error: invalid pin hash: sha1/"# + TestPins.a + " (32 bytes, a sha1 digest is 20)"),
    ])
    func refused(pattern: String, pin: String, expected: String) {
        do {
            _ = try OkHttpPins(patterns: [(pattern: "ok.example.com", pins: []), (pattern: pattern, pins: [pin])])
            Issue.record("accepted")
        } catch {
            #expect(error.description == expected)
            #expect(error.patternIndex == 1)
        }
    }
}
