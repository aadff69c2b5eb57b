import Foundation
import LabTestSupport
import RunnerLab
import RunnerResults
import Testing
import RunnerVocabulary

/// Hostile servers: every such scenario ends within its timeout (plus room for a loaded machine) with the
/// right error type and a message a person understands, and the rest of the run is unaffected.
@Suite("Hostile endpoints", .timeLimit(.minutes(3)))
struct HostileLabTests {
    static let header = """
        version: 1
        name: hostile
        defaults:
          # Room for a TLS handshake with a debug-build lab on a loaded machine; the cases that
          # test a timeout set their own.
          timeout: 10s
          connect_timeout: 5s
          http: "1.1"
          ca: {{ca}}
          domains: lab
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2]
              closer.lab.test: [127.0.0.6]
        scenarios:

        """

    static let cases: [(path: String, kind: TransferError.Kind?, words: String)] = [
        ("/hostile/silent", .timeout, "timed out (timeout 2s)"),
        ("/hostile/stall", .timeout, "timed out (timeout 2s)"),
        ("/hostile/drip", .timeout, "timed out (timeout 2s)"),
        ("/hostile/endless", .timeout, "timed out (timeout 2s)"),
        ("/hostile/reset", .io, "transfer with 127.0.0.2:"),
        ("/hostile/bad-status", .http, "bad HTTP response from 127.0.0.2:"),
        ("/hostile/http10", nil, ""),
    ]

    @Test(arguments: ["header-only", "sni-resolve", "trust-override"])
    func eachHostileEndpointEndsInTimeWithTheRightError(strategy: String) async throws {
        let scheme = strategy == "header-only" ? "http" : "https"
        let port = strategy == "header-only" ? "{{http}}" : "{{https}}"
        var scenarios = Self.cases.map { item in
            // The endpoints that never finish get the 2 s timeout under test; the others must
            // end on their own, so a loaded lab gets room.
            """
              - name: "\(item.path)"
                strategy: \(strategy)
                timeout: \(item.kind == .timeout ? "2s" : "15s")
                request: {url: "\(scheme)://api.lab.test:\(port)\(item.path)"}
            """
        }
        scenarios.append("""
              - name: a normal neighbour
                strategy: \(strategy)
                request: {url: "\(scheme)://api.lab.test:\(port)/echo"}
                expect: {body: {json: {"$.path": /echo}}}
            """)
        let run = try await LabRun.make().run(Self.header + scenarios.joined(separator: "\n"), jobs: 16)
        for (result, item) in zip(run.all, Self.cases) {
            // Within the scenario's timeout plus room for a loaded machine, whatever the endpoint
            // does (the ones that never finish would otherwise run to the test's own limit).
            let bound: Duration = item.kind == .timeout ? .seconds(6) : .seconds(15.5)
            #expect(result.duration < bound, "\(result.summary) took \(result.duration)")
            guard let kind = item.kind else {
                #expect(result.passed, "\(result.summary)")
                continue
            }
            let error = try #require(result.error, "\(result.summary)")
            #expect(error.kind == kind, "\(result.summary)")
            #expect(error.message.contains(item.words), "\(result.summary)")
        }
        #expect(run.all.last?.passed == true, "\(run.all.last?.summary ?? "")")
    }

    /// Megabytes of headers: the server's fault (`http`), not a crash or unbounded memory.
    @Test(arguments: ["header-only", "sni-resolve", "trust-override"])
    func aHugeHeaderBlockIsAnHTTPError(strategy: String) async throws {
        let url = strategy == "header-only"
            ? "http://api.lab.test:{{http}}/hostile/huge-headers" : "https://api.lab.test:{{https}}/hostile/huge-headers"
        let run = try await LabRun.make().run(Self.header + """
              - name: huge headers
                strategy: \(strategy)
                request: {url: "\(url)"}
            """)
        let result = try #require(run.all.first)
        // An error on the headers, not a wait for the default 10 s timeout.
        #expect(result.duration < .seconds(8), "\(result.summary) took \(result.duration)")
        let error = try #require(result.error, "\(result.summary)")
        #expect(error.kind == .http, "\(result.summary)")
        #expect(error.message.contains("Too large response headers"), "\(error.message)")
    }

    @Test(arguments: ["sni-resolve", "trust-override"])
    func aServerClosingDuringTheHandshakeIsATLSError(strategy: String) async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: closer
                strategy: \(strategy)
                timeout: 10s
                connect_timeout: 10s
                request: {url: "https://closer.lab.test:{{https}}/echo"}
            """)
        let result = try #require(run.all.first)
        #expect(result.duration < .seconds(10.5), "\(result.summary) took \(result.duration)")
        let error = try #require(result.error, "\(result.summary)")
        #expect(error.kind == .tls, "\(result.summary)")
        #expect(error.message.hasPrefix("TLS handshake with 127.0.0.6:"), "\(error.message)")
    }
}
