import Foundation
import PlanFixtures
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerReport

/// The curl line of a hop, per strategy, and the shell words it is made of — checked by the
/// words bash itself makes of them.
@Suite struct CurlCommandTests {
    static let settings = ConnectionSettings(http: .auto, timeout: .seconds(10), connectTimeout: .milliseconds(2500))

    static func evidence(_ strategy: StrategyKind, hop: HopEvidence, insecure: Bool = false) -> Evidence {
        var evidence = Evidence(strategy: strategy, ipSource: "static map 'm'", insecure: insecure, hops: [hop])
        evidence.connection = settings
        return evidence
    }

    /// A hop under `strategy`, trusting the lab's CA.
    static func hop(
        _ strategy: StrategyKind, url: String, sent: String, host: String, ip: String?, method: String = "GET",
        headers: [Header] = [], body: RequestBody? = nil
    ) -> HopEvidence {
        let connection = HopConnection(
            strategy: strategy, urlSent: sent, hostHeader: host, sni: nil, pinnedIP: ip,
            tls: ConnectionTLS(caFile: "/etc/lab/ca.pem"))
        var hop = HopEvidence(method: method, originalURL: url, connection: connection)
        hop.requestHeaders = headers
        hop.requestBody = body
        return hop
    }

    /// What bash makes of `line` after `curl`/`openssl`: its words, one per NUL, by running
    /// the line with those commands replaced by printf.
    static func words(of line: String, environment: [String: String] = [:]) throws -> [[String]] {
        let script = "curl() { printf '%s\\0' \"$@\"; printf '\\1'; }; openssl() { printf '%s\\0' \"$@\"; printf '\\1'; }\n" + line
        let output = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, deadline: .seconds(30))
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return output.stdout.split(separator: 1, omittingEmptySubsequences: true).map { command in
            command.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test func sniResolveConnectsTheNameToTheIP() throws {
        var hop = Self.hop(.sniResolve, url: "https://api.example.com/health", sent: "https://api.example.com/health", host: "api.example.com", ip: "2001:db8::7")
        hop.connection.connectTo = "api.example.com:443:[2001:db8::7]:443"
        let line = CurlCommand.line(hop, of: Self.evidence(.sniResolve, hop: hop), redactor: Redactor(secrets: []))
        #expect(line == "curl -g -sS -i --cacert '/etc/lab/ca.pem' --connect-timeout 2.5 --max-time 10 --connect-to 'api.example.com:443:[2001:db8::7]:443' 'https://api.example.com/health'")
        #expect(try Self.words(of: line) == [[
            "-g", "-sS", "-i", "--cacert", "/etc/lab/ca.pem", "--connect-timeout", "2.5", "--max-time", "10",
            "--connect-to", "api.example.com:443:[2001:db8::7]:443", "https://api.example.com/health",
        ]])
    }

    @Test func headerOnlySendsTheIPURLAndTheHost() throws {
        let hop = Self.hop(.headerOnly, url: "http://api.example.com:8080/x", sent: "http://203.0.113.5:8080/x", host: "api.example.com:8080", ip: "203.0.113.5", method: "DELETE")
        var evidence = Self.evidence(.headerOnly, hop: hop)
        evidence.connection?.http = .http2
        let line = CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: []))
        #expect(line == "curl -g -sS -i --http2-prior-knowledge --connect-timeout 2.5 --max-time 10 -X 'DELETE' -H 'Host: api.example.com:8080' 'http://203.0.113.5:8080/x'")
    }

    @Test func trustOverrideChecksTheHandshakeWithOpenSSLFirst() throws {
        var hop = Self.hop(
            .trustOverride, url: "https://api.example.com/x", sent: "https://203.0.113.5/x", host: "api.example.com", ip: "203.0.113.5",
            method: "POST")
        hop.connection.tls.verifyName = "api.example.com"
        let line = CurlCommand.line(hop, of: Self.evidence(.trustOverride, hop: hop), redactor: Redactor(secrets: []))
        let commands = try Self.words(of: line)
        #expect(commands.count == 2)
        #expect(commands.first == [
            "s_client", "-connect", "203.0.113.5:443", "-noservername", "-verify_hostname", "api.example.com",
            "-verify_return_error", "-CAfile", "/etc/lab/ca.pem", "-brief",
        ])
        #expect(commands.last == [
            "-g", "-sS", "-i", "-k", "--connect-timeout", "2.5", "--max-time", "10", "-H", "Host: api.example.com",
            "-H", "Expect:", "-H", "Content-Type:", "--data-binary", "", "https://203.0.113.5/x",
        ])
        #expect(line.hasSuffix("# trust-override: openssl checks the certificate against the host without SNI; curl cannot, so -k after that check"))
        // Without verification there is nothing for openssl to check.
        let insecure = CurlCommand.line(hop, of: Self.evidence(.trustOverride, hop: hop, insecure: true), redactor: Redactor(secrets: []))
        #expect(insecure.hasPrefix("curl -g -sS -i -k "))
    }

    /// Headers, a URL and a body that try to end their word, start a command or span lines stay
    /// the exact bytes they were; a named secret is a reference to its variable, never its value.
    @Test func nothingBreaksOutOfItsWordAndSecretsAreReferences() throws {
        let secret = "t0k'en $(touch /tmp/curl-command-test) `id`"
        let redactor = Redactor(named: [SecretValue(name: "API_TOKEN", value: secret)])
        let body = "line one\nit's \"two\"\t$HOME \\ \(secret) \u{7F}end 雪"
        let hop = Self.hop(
            .system, url: "https://api.example.com/a'b?c=$(x)&d=`y`", sent: "https://api.example.com/a'b?c=$(x)&d=`y`",
            host: "api.example.com", ip: nil, method: "PUT",
            headers: [Header(name: "Authorization", value: "Bearer " + secret), Header(name: "X-Empty", value: ""),
                      Header(name: "X-Quote", value: "'\"; rm -rf / #")],
            body: .bytes(Data(body.utf8)))
        let line = CurlCommand.line(hop, of: Self.evidence(.system, hop: hop), redactor: redactor)
        #expect(!line.contains("t0k"))
        #expect(!line.contains("\n"))
        #expect(line.contains("'Authorization: Bearer '\"$API_TOKEN\""))
        let words = try #require(try Self.words(of: line, environment: ["API_TOKEN": secret]).first)
        #expect(Array(words.prefix(10)) == ["-g", "-sS", "-i", "--cacert", "/etc/lab/ca.pem", "--connect-timeout", "2.5", "--max-time", "10", "-X"])
        #expect(words.contains("X-Empty;"))
        #expect(words.contains(body))
        #expect(words.contains("Authorization: Bearer " + secret))
        #expect(words.contains("X-Quote: '\"; rm -rf / #"))
        #expect(words.last == "https://api.example.com/a'b?c=$(x)&d=`y`")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/curl-command-test"))
    }

    /// A method is a word from the plan like any other: a secret in it is a reference too (it
    /// was written as it was, the secret in clear, until the JSON report's round trip showed it).
    @Test func aSecretInTheMethodIsAReference() throws {
        let redactor = Redactor(named: [SecretValue(name: "VERB", value: "s3cret")])
        let hop = Self.hop(
            .system, url: "https://api.example.com/", sent: "https://api.example.com/", host: "api.example.com", ip: nil,
            method: "\u{F}s3cret")
        let line = CurlCommand.line(hop, of: Self.evidence(.system, hop: hop), redactor: redactor)
        #expect(!line.contains("s3cret"))
        let words = try #require(try Self.words(of: line, environment: ["VERB": "s3cret"]).first)
        #expect(words.contains("\u{F}s3cret"))
    }

    /// A body with a NUL cannot be an argument: printf makes its bytes for curl to read.
    @Test func aBinaryBodyIsMadeByPrintf() throws {
        let bytes: [UInt8] = [0, 1, 0x27, 0x25, 0xFF, 0x0A]
        let hop = Self.hop(.system, url: "http://a.example/", sent: "http://a.example/", host: "a.example", ip: nil, method: "POST", body: .bytes(Data(bytes)))
        let line = CurlCommand.line(hop, of: Self.evidence(.system, hop: hop), redactor: Redactor(secrets: []))
        #expect(line.contains("--data-binary @<(printf '\\x00\\x01\\x27\\x25\\xff\\x0a')"))
        let printf = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "printf '\\x00\\x01\\x27\\x25\\xff\\x0a'"])
        #expect(Array(printf.stdout) == bytes)
        let file = Self.hop(.system, url: "http://a.example/", sent: "http://a.example/", host: "a.example", ip: nil, method: "POST", body: .file(path: "/data/it's.bin"))
        #expect(CurlCommand.line(file, of: Self.evidence(.system, hop: file), redactor: Redactor(secrets: []))
            .hasSuffix("--data-binary @'/data/it'\\''s.bin' 'http://a.example/'"))
    }

    /// The client's TLS (`tls:`, here the ios-ats profile narrowed) goes to curl and to openssl.
    @Test func theClientsTLSIsOfferedTheSameWay() throws {
        var hop = Self.hop(.trustOverride, url: "https://api.example.com/x", sent: "https://203.0.113.5/x", host: "api.example.com", ip: "203.0.113.5")
        hop.connection.tls.verifyName = "api.example.com"
        hop.connection.tls.client = ClientTLS(
            minVersion: .v1_2, maxVersion: .v1_2, ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"], tls13Ciphers: ["TLS_AES_128_GCM_SHA256"],
            curves: ["X25519", "P-256"], profile: .iosATS)
        let evidence = Self.evidence(.trustOverride, hop: hop)
        let commands = try Self.words(of: CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: [])))
        #expect(commands.first?.joined(separator: " ").contains(
            "-min_protocol TLSv1.2 -max_protocol TLSv1.2 -cipher ECDHE-RSA-AES128-GCM-SHA256 -ciphersuites TLS_AES_128_GCM_SHA256 -groups X25519:P-256") == true)
        #expect(commands.last?.joined(separator: " ").contains(
            "--tlsv1.2 --tls-max 1.2 --ciphers ECDHE-RSA-AES128-GCM-SHA256 --tls13-ciphers TLS_AES_128_GCM_SHA256 --curves X25519:P-256") == true)
    }

    @Test func headAndTheHTTPVersions() {
        let hop = Self.hop(.system, url: "https://a.example/", sent: "https://a.example/", host: "a.example", ip: nil, method: "HEAD")
        var evidence = Self.evidence(.system, hop: hop)
        #expect(CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: [])).contains(" -I 'https://a.example/'"))
        evidence.connection?.http = .http1_1
        #expect(CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: [])).hasPrefix("curl -g -sS -i --http1.1 "))
        evidence.connection?.http = .http2
        #expect(CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: [])).hasPrefix("curl -g -sS -i --http2 "))
    }

    /// A scheme in capitals is still HTTPS, as libcurl reads it: the CA and HTTP/2 over TLS.
    @Test func anHTTPSSchemeInCapitalsIsHTTPS() {
        let hop = Self.hop(.system, url: "HTTPS://a.example/", sent: "HTTPS://a.example/", host: "a.example", ip: nil)
        var evidence = Self.evidence(.system, hop: hop)
        evidence.connection?.http = .http2
        #expect(
            CurlCommand.line(hop, of: evidence, redactor: Redactor(secrets: []))
                == "curl -g -sS -i --http2 --cacert '/etc/lab/ca.pem' --connect-timeout 2.5 --max-time 10 'HTTPS://a.example/'")
    }

    @Test(arguments: [
        ("https://203.0.113.5/x", 443), ("http://203.0.113.5/x", 80), ("https://203.0.113.5:8443/x", 8443),
        ("https://[2001:db8::1]/x", 443), ("https://[2001:db8::1]:9443/x?y=:1", 9443), ("http://10.0.0.1:81", 81),
        ("HTTPS://203.0.113.5/x", 443),
    ])
    func portsOfTheURLsTheRunnerBuilds(url: String, port: Int) {
        #expect(CurlCommand.port(of: url) == port)
    }

    @Test func secondsAsCurlReadsThem() {
        #expect(CurlCommand.seconds(.seconds(10)) == "10")
        #expect(CurlCommand.seconds(.milliseconds(500)) == "0.5")
        #expect(CurlCommand.seconds(.milliseconds(2250)) == "2.25")
        #expect(CurlCommand.seconds(.microseconds(1)) == "0.001")
        #expect(CurlCommand.seconds(.milliseconds(1010)) == "1.01")
        #expect(CurlCommand.seconds(.milliseconds(120)) == "0.12")
        #expect(CurlCommand.seconds(.milliseconds(61234)) == "61.234")
        #expect(CurlCommand.seconds(.microseconds(2001)) == "0.003")
        #expect(CurlCommand.seconds(.zero) == "0.001")
    }

    /// A report keeps the last time limits it wrote: other settings are written as their own.
    @Test func timeLimitsFollowTheSettings() {
        var limits = CurlTimeLimits()
        var bytes = ByteBuffer()
        let other = ConnectionSettings(http: .auto, timeout: .milliseconds(1500), connectTimeout: .seconds(3))
        for settings in [Self.settings, Self.settings, other, Self.settings] {
            limits.append(settings, to: &bytes)
            bytes.append(UInt8(ascii: "|"))
        }
        #expect(String(decoding: bytes.array, as: UTF8.self) == " --connect-timeout 2.5 --max-time 10| --connect-timeout 2.5 --max-time 10|"
            + " --connect-timeout 1.5 --max-time 1.5| --connect-timeout 2.5 --max-time 10|")
    }

    /// A header is quoted from its name and value as the joined text would be: `'` closed and
    /// reopened in either part, a control character in either making the whole word `$'…'`.
    @Test(arguments: [
        (Header(name: "X-Probe", value: "terminal"), #"'X-Probe: terminal'"#),
        (Header(name: "X-Empty", value: ""), #"'X-Empty;'"#),
        (Header(name: "X'Name", value: "it's a 'long' value"), #"'X'\''Name: it'\''s a '\''long'\'' value'"#),
        (Header(name: "X-Tab", value: "a\tb"), #"$'X-Tab: a\tb'"#),
        (Header(name: "X-Bell\u{7}", value: "it's"), #"$'X-Bell\x07: it\'s'"#),
        (Header(name: "X-Snow", value: "雪 'é'"), #"'X-Snow: 雪 '\''é'\'''"#),
    ])
    func headersAreQuotedFromTheirParts(header: Header, word: String) {
        let hop = Self.hop(.system, url: "http://a.example/", sent: "http://a.example/", host: "a.example", ip: nil, headers: [header])
        let line = CurlCommand.line(hop, of: Self.evidence(.system, hop: hop), redactor: Redactor(secrets: []))
        #expect(line.hasSuffix(" -H \(word) 'http://a.example/'"), "\(line)")
    }

    /// The strategy's `Host` is quoted as a request header is: a `'` closed and reopened, a
    /// control character making the word `$'…'`.
    @Test(arguments: [
        ("api.example.com:8080", #"'Host: api.example.com:8080'"#),
        ("it's.example", #"'Host: it'\''s.example'"#),
        ("a\tb.example", #"$'Host: a\tb.example'"#),
    ])
    func theStrategysHostIsQuotedLikeAHeader(host: String, word: String) {
        let hop = Self.hop(.headerOnly, url: "http://a.example/", sent: "http://203.0.113.5/", host: host, ip: "203.0.113.5")
        let line = CurlCommand.line(hop, of: Self.evidence(.headerOnly, hop: hop), redactor: Redactor(secrets: []))
        #expect(line.hasSuffix(" -H \(word) 'http://203.0.113.5/'"), "\(line)")
    }

    /// A body of text is quoted from its bytes: printable with a quote past its first eight
    /// bytes, empty, with a control character, with non-ASCII text.
    @Test(arguments: [
        (#"{"n": 12345, "q": "it's"}"#, #"'{"n": 12345, "q": "it'\''s"}'"#),
        ("", "''"),
        ("line one\nline two", #"$'line one\nline two'"#),
        ("snow 雪, it's", #"'snow 雪, it'\''s'"#),
    ])
    func bodiesAreQuotedFromTheirBytes(body: String, word: String) {
        let hop = Self.hop(
            .system, url: "http://a.example/", sent: "http://a.example/", host: "a.example", ip: nil, method: "POST", body: .bytes(Data(body.utf8)))
        let line = CurlCommand.line(hop, of: Self.evidence(.system, hop: hop), redactor: Redactor(secrets: []))
        #expect(line.hasSuffix(" --data-binary \(word) 'http://a.example/'"), "\(line)")
    }
}
