import Foundation
import LabTestSupport
import RunnerLab
import RunnerResults
import Testing

/// Each strategy against the lab's real TLS vhosts: the lab's echo endpoint reports what the
/// server saw (Host, SNI, the address it was reached on) and the plan's expectations check it.
@Suite("Strategies against the lab", .timeLimit(.minutes(3)))
struct StrategiesLabTests {
    static let header = """
        version: 1
        name: strategies
        defaults:
          timeout: 5s
          ca: {{ca}}
          domains: lab
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2]
              sni.lab.test: [127.0.0.3]
              expired.lab.test: [127.0.0.4]
              other.lab.test: [127.0.0.2]
              v6.lab.test: ["::1"]
          replica:
            static:
              api.lab.test: [127.0.0.5]
          lab6:
            static:
              api.lab.test: ["::1"]
        scenarios:

        """

    @Test func headerOnlySendsTheHostHeaderToTheIP() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: header-only
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
                expect:
                  status: 200
                  body: {json: {"$.host": "api.lab.test:{{http}}", "$.sni": null, "$.tls": false, "$.local_address": 127.0.0.2}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.displayName == "header-only [header-only 127.0.0.2]")
        let hop = try #require(result.evidence.hops.first)
        #expect(hop.connection.hostHeader.hasPrefix("api.lab.test:"))
        #expect(hop.connection.urlSent.hasPrefix("http://127.0.0.2:"))
        #expect(hop.connectedIP == "127.0.0.2")
    }

    @Test func trustOverrideSendsNoSNIAndChecksTheNameAgainstTheHost() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: trust-override
                strategy: trust-override
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect:
                  status: 200
                  body: {json: {"$.host": "api.lab.test:{{https}}", "$.sni": null, "$.tls": true, "$.local_address": 127.0.0.2}}
                  certificate: {min_days_left: 30, issuer: {contains: runner lab CA}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        let hop = try #require(result.evidence.hops.first)
        #expect(hop.connection.sni == nil)
        #expect(hop.certificate?.subjectAltNames.contains("api.lab.test") == true)
    }

    @Test func sniResolveSendsTheHostAsSNIToThePinnedIP() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: sni-resolve
                strategy: sni-resolve
                request: {url: "https://sni.lab.test:{{https}}/echo"}
                expect:
                  status: 200
                  body: {json: {"$.host": "sni.lab.test:{{https}}", "$.sni": sni.lab.test, "$.local_address": 127.0.0.3}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.hops.first?.connection.sni == "sni.lab.test")
        #expect(result.evidence.hops.first?.certificate?.subjectAltNames.contains("sni.lab.test") == true)
    }

    @Test func systemUsesTheMachineResolver() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: system
                strategy: system
                request: {url: "http://localhost:{{http}}/echo"}
                expect:
                  body: {json: {"$.host": "localhost:{{http}}"}}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.displayName == "system [system]")
        #expect(result.evidence.hops.first?.connection.pinnedIP == nil)
    }

    @Test func ipv6PinIsReachedInBrackets() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: v6
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
                domains: lab6
                expect:
                  body: {json: {"$.local_address": "::1"}}
              - name: v6 sni
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/echo"}
                domains: lab6
                expect:
                  body: {json: {"$.local_address": "::1", "$.sni": api.lab.test}}
            """)
        #expect(run.all.count == 2)
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
            #expect(result.ip == "::1")
        }
    }

    @Test func trustOverrideAgainstTheSNIOnlyHostIsAnErrorWithTheSNIDiagnosis() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: needs sni
                strategy: trust-override
                request: {url: "https://sni.lab.test:{{https}}/echo"}
            """)
        let result = try #require(run.all.first)
        let error = try #require(result.error, "\(result.summary)")
        #expect(error.kind == .tls)
        #expect(error.message.contains("127.0.0.3"))
        let port = try await SharedLab.get().httpsPort
        #expect(error.diagnosis == "the server at 127.0.0.3:\(port) presents 'default.lab.test' without SNI and 'sni.lab.test' with it, so this endpoint needs sni-resolve")
    }

    /// A name the certificate does not cover fails even after a good connection to the same
    /// IP:port: no connection or TLS session is shared across verification names.
    @Test(arguments: [1, 8])
    func aNameTheCertificateDoesNotCoverFailsAfterAGoodConnection(jobs: Int) async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: good first
                strategy: trust-override
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: good second
                strategy: trust-override
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: not covered
                strategy: trust-override
                request: {url: "https://other.lab.test:{{https}}/echo"}
            """, jobs: jobs)
        let results = run.all
        #expect(results.count == 3)
        #expect(results[0].passed, "\(results[0].summary)")
        #expect(results[1].passed, "\(results[1].summary)")
        let error = try #require(results[2].error, "\(results[2].summary)")
        #expect(error.kind == .tls)
        #expect(error.diagnosis?.contains("which does not cover 'other.lab.test'") == true, "\(error)")
    }

    /// Two pins of one host to different IPs really reach both IPs, at --jobs 1 and 8.
    @Test(arguments: [1, 8])
    func aSecondPinOfTheSameHostReachesTheSecondIP(jobs: Int) async throws {
        let lab = try await SharedLab.get()
        let before = lab.connectionsAccepted(on: LabAddress.replica)
        var scenarios = ""
        for strategy in ["header-only", "trust-override", "sni-resolve"] {
            let scheme = strategy == "header-only" ? "http" : "https"
            let port = strategy == "header-only" ? "{{http}}" : "{{https}}"
            for (map, address) in [("lab", "127.0.0.2"), ("replica", "127.0.0.5"), ("lab", "127.0.0.2"), ("replica", "127.0.0.5")] {
                scenarios += """
                      - name: \(strategy) via \(map) \(scenarios.count)
                        strategy: \(strategy)
                        domains: \(map)
                        request: {url: "\(scheme)://api.lab.test:\(port)/echo"}
                        expect:
                          body: {json: {"$.local_address": \(address)}}

                    """
            }
        }
        let run = try await LabRun.make().run(Self.header + scenarios, jobs: jobs)
        #expect(run.all.count == 12)
        for result in run.all {
            #expect(result.passed, "\(result.summary)")
            let expected = result.scenario.contains("replica") ? "127.0.0.5" : "127.0.0.2"
            #expect(result.evidence.hops.first?.connectedIP == expected)
        }
        #expect(lab.connectionsAccepted(on: LabAddress.replica) > before)
    }

    @Test func anExpiredCertificateIsAnError() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: expired
                strategy: [sni-resolve, trust-override]
                request: {url: "https://expired.lab.test:{{https}}/echo"}
            """)
        #expect(run.all.count == 2)
        for result in run.all {
            let error = try #require(result.error, "\(result.summary)")
            #expect(error.kind == .tls)
            #expect(error.diagnosis?.hasPrefix("the certificate 'expired.lab.test' expired on ") == true, "\(error)")
        }
    }

    @Test func insecureSkipsVerificationAndIsFlagged() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: insecure
                strategy: sni-resolve
                insecure: true
                request: {url: "https://expired.lab.test:{{https}}/echo"}
            """)
        let result = try #require(run.all.first)
        #expect(result.passed, "\(result.summary)")
        #expect(result.evidence.insecure)
    }

    @Test func aStatusMismatchIsAFailureNotAnError() async throws {
        let run = try await LabRun.make().run(Self.header + """
              - name: status
                strategy: sni-resolve
                request: {url: "https://api.lab.test:{{https}}/status/404"}
                expect: {status: 200}
            """)
        let result = try #require(run.all.first)
        #expect(result.problems == [Problem(subject: "status", expected: "200", actual: "404")], "\(result.summary)")
    }

    @Test func theTimeoutIsHonoured() async throws {
        let labRun = try await LabRun.make()
        let started = Date()
        let run = try await labRun.run(Self.header + """
              - name: slow
                strategy: sni-resolve
                timeout: 1s
                request: {url: "https://api.lab.test:{{https}}/delay/10000"}
            """)
        let elapsed = Date().timeIntervalSince(started)
        let result = try #require(run.all.first)
        #expect(result.error?.kind == .timeout, "\(result.summary)")
        // Not before the timeout, and far from the 10 s answer (room for a loaded machine).
        // libcurl counts whole milliseconds on its own clock: it may fire a hair early by ours.
        #expect(result.duration >= .seconds(0.95) && result.duration < .seconds(5), "the result took \(result.duration) for a 1 s timeout")
        #expect(elapsed < 8, "the run took \(elapsed) s for a 1 s timeout")
    }

    /// Reuse only within one identity: the same pin and host share a connection; another Host
    /// on the same IP does not ride on it.
    @Test func connectionsAreReusedWithinAnIdentityOnly() async throws {
        var scenarios = ""
        for index in 0..<4 {
            scenarios += """
                  - name: same identity \(index)
                    strategy: header-only
                    request: {url: "http://api.lab.test:{{http}}/echo"}
                  - name: other host \(index)
                    strategy: header-only
                    request: {url: "http://other.lab.test:{{http}}/echo"}

                """
        }
        let run = try await LabRun.make().run(Self.header + scenarios, jobs: 1)
        let results = run.all
        #expect(results.allSatisfy { $0.passed }, "\(results.map(\.summary))")
        let newConnections = results.map { $0.evidence.hops.first?.newConnection == true }
        // The first of each identity opens a connection; the rest reuse their own identity's.
        #expect(newConnections == [true, true, false, false, false, false, false, false])
    }
}
