import Crypto
import Foundation
import LabTestSupport
import RunnerLab
import RunnerResults
import RunnerVocabulary
import Testing

/// What IP direct connect tends to break, proved against the lab's echo endpoint under each
/// strategy it applies to: bodies, redirects, cookies, HTTP versions.
@Suite("Request fidelity against the lab", .timeLimit(.minutes(3)))
struct FidelityLabTests {
    static let header = """
        version: 1
        name: fidelity
        defaults:
          timeout: 20s
          ca: {{ca}}
          domains: lab
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2]
              sni.lab.test: [127.0.0.3]
          http11only:
            static:
              api.lab.test: [127.0.0.5]
        scenarios:

        """

    static func hex(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    /// Binary bytes (every byte value, NUL and CRLF included) arrive exactly.
    @Test(arguments: [("header-only", "http", "{{http}}"), ("sni-resolve", "https", "{{https}}"), ("trust-override", "https", "{{https}}")])
    func binaryBodiesArriveByteExact(strategy: String, scheme: String, port: String) async throws {
        var bytes = Data((0...255).map { UInt8($0) })
        bytes += Data("\r\n\0\r\n".utf8)
        let run = try await LabRun.make().run(Self.header + """
              - name: binary
                strategy: \(strategy)
                request:
                  method: POST
                  url: "\(scheme)://api.lab.test:\(port)/echo"
                  headers: {Content-Type: application/octet-stream}
                  body_base64: "\(bytes.base64EncodedString())"
                expect:
                  body: {json: {"$.body_length": \(bytes.count), "$.body_sha256": "\(Self.hex(bytes))", "$.method": POST}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
    }

    /// A multi-MiB file is streamed from disk and arrives with the right SHA-256.
    @Test(arguments: [("header-only", "http", "{{http}}"), ("sni-resolve", "https", "{{https}}")])
    func aMultiMiBFileArrivesWithItsSHA256(strategy: String, scheme: String, port: String) async throws {
        let directory = try LabPlans.temporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(5 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = directory.appendingPathComponent("payload.bin")
        try bytes.write(to: file)
        let run = try await LabRun.make().run(Self.header + """
              - name: file
                strategy: \(strategy)
                request:
                  method: PUT
                  url: "\(scheme)://api.lab.test:\(port)/echo"
                  body_file: \(file.path)
                expect:
                  body: {json: {"$.body_length": \(bytes.count), "$.body_sha256": "\(Self.hex(bytes))", "$.method": PUT}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
    }

    @Test(arguments: ["header-only", "sni-resolve"])
    func a307ResendsTheBodyAndA303DropsIt(strategy: String) async throws {
        let scheme = strategy == "header-only" ? "http" : "https"
        let port = strategy == "header-only" ? "{{http}}" : "{{https}}"
        let body = "{\"user\":\"probe\"}"
        let run = try await LabRun.make().run(Self.header + """
              - name: 307
                strategy: \(strategy)
                request:
                  method: POST
                  url: "\(scheme)://api.lab.test:\(port)/redirect/307?to=/echo"
                  body: '\(body)'
                expect:
                  redirects: 1
                  final_url: "\(scheme)://api.lab.test:\(port)/echo"
                  body: {json: {"$.method": POST, "$.body_sha256": "\(Self.hex(Data(body.utf8)))", "$.path": /echo}}
              - name: 303
                strategy: \(strategy)
                request:
                  method: POST
                  url: "\(scheme)://api.lab.test:\(port)/redirect/303?to=/echo"
                  body: '\(body)'
                expect:
                  redirects: 1
                  body: {json: {"$.method": GET, "$.body_length": 0, "$.path": /echo}}
            """)
        #expect(run.all.count == 2)
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
            #expect(result.evidence.hops.map(\.status) == [Int(result.scenario), 200])
        }
    }

    /// A relative Location under header-only reaches http://HOST/…: the same IP, the same Host.
    @Test func aRelativeRedirectUnderHeaderOnlyKeepsTheHost() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: relative
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/redirect/302?to=../echo"}
                expect:
                  body: {json: {"$.host": "api.lab.test:{{http}}", "$.local_address": 127.0.0.2, "$.path": /echo}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.hops.map(\.connection.urlSent).allSatisfy { $0.hasPrefix("http://127.0.0.2:") })
        #expect(result.evidence.hops.map(\.connection.hostHeader).allSatisfy { $0.hasPrefix("api.lab.test:") })
    }

    /// A redirect to another host goes through the domain map again and carries that host's SNI.
    @Test func aCrossHostRedirectReachesTheSecondHostsIPWithItsSNI() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: cross host
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/redirect/302?to=https://sni.lab.test:{{https}}/echo"}
                expect:
                  final_url: "https://sni.lab.test:{{https}}/echo"
                  body: {json: {"$.sni": sni.lab.test, "$.local_address": 127.0.0.3, "$.host": "sni.lab.test:{{https}}"}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.hops.map(\.connectedIP) == ["127.0.0.2", "127.0.0.3"])
        #expect(result.evidence.hops.map(\.connection.sni) == ["api.lab.test", "sni.lab.test"])
    }

    /// A cookie set on a redirect hop comes back on the next hop, filed under the host, not the IP.
    @Test(arguments: ["header-only", "sni-resolve"])
    func aCookieSetOnARedirectHopComesBack(strategy: String) async throws {
        let scheme = strategy == "header-only" ? "http" : "https"
        let port = strategy == "header-only" ? "{{http}}" : "{{https}}"
        let run = try await LabRun.make().run(Self.header + """
              - name: cookie
                strategy: \(strategy)
                request: {url: "\(scheme)://api.lab.test:\(port)/redirect/302?to=/echo&set-cookie=session%3Dabc123%3B%20Path%3D%2F"}
                expect:
                  body: {json: {"$.cookies.session": abc123}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.notes.contains("cookies kept: session (api.lab.test/)"), "\(result.evidence.notes)")
    }

    @Test func aRedirectLoopIsAnErrorNamingTheChain() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: loop
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/redirect-loop"}
            """)
        let error = try #require(run.all.first?.error)
        #expect(error.kind == .http)
        #expect(error.message.hasPrefix("redirect loop: https://api.lab.test:"), "\(error.message)")
    }

    @Test func maxRedirectsAndFollowRedirectsFalse() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: too many
                strategy: sni-resolve
                max_redirects: 2
                request: {url: "https://api.lab.test:{{https}}/redirect-chain/3"}
              - name: enough
                strategy: sni-resolve
                max_redirects: 3
                request: {url: "https://api.lab.test:{{https}}/redirect-chain/3"}
                expect: {redirects: 3, body: {equals: chain done}}
              - name: not followed
                strategy: sni-resolve
                follow_redirects: false
                request: {url: "https://api.lab.test:{{https}}/redirect/308?to=/echo"}
                expect:
                  status: 308
                  redirects: 0
                  headers: {Location: /echo}
            """)
        let results = run.all
        #expect(results[0].error?.message.hasPrefix("more than 2 redirects (max_redirects): ") == true, "\(results[0].summary)")
        #expect(results[1].passed, "\(results[1].summary)")
        #expect(results[2].passed, "\(results[2].summary)")
    }

    @Test func http2IsNegotiatedByALPNAndOnlyWhereTheServerSpeaksIt() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: h2
                strategy: [sni-resolve, trust-override]
                http: "2"
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect:
                  http_version: "2"
                  body: {json: {"$.http_version": "2"}}
              - name: auto prefers h2
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {http_version: "2"}
              - name: an HTTP/1.1-only server
                strategy: sni-resolve
                domains: http11only
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect:
                  http_version: "1.1"
                  body: {json: {"$.http_version": "1.1", "$.local_address": 127.0.0.5}}
              - name: forced 1.1
                strategy: sni-resolve
                http: "1.1"
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {http_version: "1.1"}
            """)
        #expect(run.all.count == 5)
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
        }
        #expect(run.all.first?.evidence.hops.first?.httpVersion == "2")
    }
}

@Suite("Bounded bodies", .timeLimit(.minutes(3)))
struct BoundedBodyTests {
    /// Every new connection shows the chain it verified: none resumes an earlier connection's
    /// TLS session, which would skip the check and leave OpenSSL no verified chain (the
    /// evidence said `chain_verified: false` with the leaf alone, and a pin on the CA failed).
    @Test(arguments: [StrategyKind.sniResolve, .trustOverride])
    func everyNewConnectionVerifiesItsChain(strategy: StrategyKind) async throws {
        // `Connection: close` (HTTP/1.1: the server ends the connection) makes each result after
        // the first open a new one to the same server, one after another (--jobs 1): each could
        // resume the last one's session.
        let scenarios = (1...4).map { number in
            """
              - name: closing \(number)
                strategy: \(strategy.rawValue)
                domains: http11only
                request: {url: "https://api.lab.test:{{https}}/echo", headers: {Connection: close}}
            """
        }
        let run = try await LabRun.make().run(FidelityLabTests.header + scenarios.joined(separator: "\n"), jobs: 1)
        #expect(run.all.count == 4)
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
            let hop = try #require(result.evidence.hops.first)
            #expect(hop.newConnection == true, "\(result.scenario): the connection was reused")
            #expect(hop.tls?.chainVerified == true, "\(result.scenario): \(String(describing: hop.tls))")
            #expect((hop.tls?.chain.count ?? 0) >= 2, "\(result.scenario): the chain is \(hop.tls?.chain.map(\.subject) ?? [])")
        }
    }

    /// The length a response declares is kept beside the bytes that came: the same for a GET; a
    /// HEAD declares the body it would have sent and receives none.
    @Test func theDeclaredLengthIsKeptBesideTheBytesThatCame() async throws {
        let run = try await LabRun.make().run(FidelityLabTests.header + """
              - name: get
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/bytes/5000"}
              - name: head
                strategy: sni-resolve
                request: {method: HEAD, url: "https://api.lab.test:{{https}}/bytes/5000"}
            """)
        let get = try #require(run.all.first { $0.scenario == "get" }?.evidence.hops.first)
        #expect(get.contentLength == 5000 && get.bodyLength == 5000)
        let head = try #require(run.all.first { $0.scenario == "head" }?.evidence.hops.first)
        #expect(head.contentLength == 5000 && head.bodyLength == 0)
    }

    /// Past `max_body` the body is still counted and hashed whole, and the evidence says it was cut.
    @Test func aBodyLongerThanMaxBodyIsHashedWholeAndSaysSo() async throws {
        let run = try await LabRun.make().run(FidelityLabTests.header + """
              - name: long body
                strategy: sni-resolve
                max_body: 1KiB
                request: {url: "https://api.lab.test:{{https}}/bytes/5000"}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.hops.first?.bodyLength == 5000)
        #expect(result.evidence.notes.contains(
            "body: 5000 bytes; only the first 1024 kept for contains/matches/json (max_body), all of it hashed"),
            "\(result.evidence.notes)")
    }
}
