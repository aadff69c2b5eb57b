import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// Mobile trust against the lab: pins per IP (the stale edge caught), the iOS ATS profile
/// (a server without forward secrecy refused, with its diagnosis; TLS 1.2 ECDHE accepted),
/// `expect.tls`, and the evidence in the console, JSON and metrics.
@Suite("mobile trust", .timeLimit(.minutes(3)))
struct MobileTrustCLITests {
    /// The pin of a PEM certificate as a user computes it, with the openssl command line.
    static func pin(ofPEM pem: String, in directory: URL) async throws -> String {
        let file = directory.appendingPathComponent("\(UUID().uuidString).pem")
        try pem.write(to: file, atomically: true, encoding: .utf8)
        let output = try await PackageExecutable.runTool(
            "/bin/sh",
            ["-c", "openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
             "pin", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        return "sha256/" + output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func pinsProfileAndNegotiatedTLSInEveryReport() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let current = try await Self.pin(ofPEM: lab.primaryLeafPEM, in: directory)
        let stale = try await Self.pin(ofPEM: lab.staleLeafPEM, in: directory)
        #expect(current != stale)
        let plan = try LabPlans.write("""
            version: 1
            name: mobile
            defaults:
              ca: "{{ca}}"
              domains: edges
            domains:
              edges: {static: {api.lab.test: [\(LabAddress.primary), \(LabAddress.staleEdge)]}}
              weak: {static: {api.lab.test: [\(LabAddress.noForwardSecrecy)]}}
              tls12: {static: {api.lab.test: [\(LabAddress.tls12)]}}
            scenarios:
              - name: pinned on every edge
                ips: all
                strategy: [sni-resolve, trust-override]
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {certificate: {pins: ["\(current)"]}, tls: {version: "1.3", cipher: {matches: "^TLS_"}}}
              - name: ats and no forward secrecy
                domains: weak
                tls: {profile: ios-ats}
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: ats and tls 1.2 ecdhe
                domains: tls12
                tls: {profile: ios-ats}
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {tls: {version: "1.2", cipher: ECDHE-ECDSA-AES128-GCM-SHA256}}
              - name: no tls 1.3 offered
                domains: edges
                tls: {max_version: "1.2"}
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {tls: {version: "1.2"}}
            """, lab: lab)
        let json = directory.appendingPathComponent("report.json").path
        let metrics = directory.appendingPathComponent("m.prom").path
        let output = try await PackageExecutable.run(
            "runner", [plan, "--verbose", "--color", "never", "--json", json, "--metrics", metrics])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let stdout = output.stdout

        // The stale edge fails, its message listing the chain's pins, leaf first; the current one passes.
        #expect(stdout.contains("PASS  pinned on every edge [sni-resolve \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains(
            "FAIL  pinned on every edge [sni-resolve \(LabAddress.staleEdge)]"), "\(stdout)")
        #expect(stdout.contains(
            "certificate pins: expected one of \(current), got chain \(stale) (CN=api.lab.test,O=runner lab), sha256/"), "\(stdout)")
        // Trust override verifies the chain too (the name checked without SNI): the same verdicts.
        #expect(stdout.contains("PASS  pinned on every edge [trust-override \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains("FAIL  pinned on every edge [trust-override \(LabAddress.staleEdge)]"), "\(stdout)")
        #expect(stdout.contains("FAIL  mobile: pinned on every edge 2/4 results passed; failing: sni-resolve \(LabAddress.staleEdge) certificate pins, trust-override \(LabAddress.staleEdge) certificate pins"), "\(stdout)")
        // The runner's pins are openssl's.
        #expect(stdout.contains("chain 0: CN=api.lab.test,O=runner lab; EC 256; ecdsa-with-SHA256; \(current)"), "\(stdout)")
        #expect(stdout.contains("chain 1: CN=runner lab CA,O=runner lab; EC 256; ecdsa-with-SHA256; sha256/"), "\(stdout)")
        #expect(stdout.contains("tls: TLS 1.3, TLS_"), "\(stdout)")

        // ATS refuses the server without forward secrecy; the second handshake says what it offers.
        #expect(stdout.contains("ERROR ats and no forward secrecy [sni-resolve \(LabAddress.noForwardSecrecy)] — tls: "), "\(stdout)")
        #expect(stdout.contains(
            "diagnosis: the server at \(LabAddress.noForwardSecrecy):\(lab.httpsPort) negotiates only TLS 1.2 AES128-GCM-SHA256 (no forward secrecy), which an iOS app with ATS refuses"),
            "\(stdout)")
        #expect(stdout.contains("PASS  ats and tls 1.2 ecdhe [sni-resolve \(LabAddress.tls12)]"), "\(stdout)")
        #expect(stdout.contains("PASS  no tls 1.3 offered [sni-resolve \(LabAddress.primary)]"), "\(stdout)")

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let results = try #require(((report["suites"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let tls = results.compactMap { (($0["evidence"] as? [String: Any])?["hops"] as? [[String: Any]])?.first?["tls"] as? [String: Any] }
        #expect(tls.contains { $0["version"] as? String == "1.2" && $0["cipher"] as? String == "ECDHE-ECDSA-AES128-GCM-SHA256" })
        let chains = tls.compactMap { $0["chain"] as? [[String: Any]] }
        #expect(chains.contains { $0.first?["pin"] as? String == stale && $0.first?["key_type"] as? String == "EC" && $0.first?["key_bits"] as? Int == 256 })

        let exposition = try String(contentsOfFile: metrics, encoding: .utf8)
        let promtool = try await Exposition.promtool(exposition)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(exposition.contains("probe_tls_version_info{plan=\"mobile\",scenario=\"ats and tls 1.2 ecdhe\",strategy=\"sni-resolve\",ip=\"\(LabAddress.tls12)\",version=\"TLS 1.2\"} 1"), "\(exposition)")
        #expect(exposition.contains("runner_certificate_pin_match{plan=\"mobile\",scenario=\"pinned on every edge\",strategy=\"sni-resolve\",ip=\"\(LabAddress.staleEdge)\"} 0"), "\(exposition)")
        #expect(exposition.contains("runner_certificate_pin_match{plan=\"mobile\",scenario=\"pinned on every edge\",strategy=\"trust-override\",ip=\"\(LabAddress.staleEdge)\"} 0"), "\(exposition)")
        #expect(exposition.contains("runner_certificate_pin_match{plan=\"mobile\",scenario=\"pinned on every edge\",strategy=\"sni-resolve\",ip=\"\(LabAddress.primary)\"} 1"), "\(exposition)")
        #expect(!exposition.contains("runner_certificate_pin_match{plan=\"mobile\",scenario=\"ats"), "only scenarios with pins have the series")
    }

    /// Each `tls:` limit reaches the handshake (the TLS hook sets them on each new connection),
    /// and none outlives its scenario on the handle that runs the next one (`--jobs 1`: one handle).
    @Test func eachLimitReachesTheHandshakeAndEndsWithItsScenario() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            name: limits
            defaults: {ca: "{{ca}}", domains: edges}
            domains:
              edges: {static: {api.lab.test: [\(LabAddress.primary)]}}
            scenarios:
              - name: tls13 suite limited
                tls: {tls13_ciphers: [TLS_CHACHA20_POLY1305_SHA256]}
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {tls: {cipher: TLS_CHACHA20_POLY1305_SHA256}}
              - name: no limit after it
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {tls: {version: "1.3", cipher: {matches: "^TLS_AES_"}}}
              - name: tls 1.2 cipher limited
                tls: {max_version: "1.2", ciphers: [ECDHE-ECDSA-CHACHA20-POLY1305]}
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {tls: {version: "1.2", cipher: ECDHE-ECDSA-CHACHA20-POLY1305}}
              - name: a group the server lacks
                tls: {curves: [X448]}
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: a group it has
                tls: {curves: [P-384]}
                request: {url: "https://api.lab.test:{{https}}/echo"}
            """, lab: lab)
        let output = try await PackageExecutable.run("runner", [plan, "--jobs", "1", "--color", "never"])
        let stdout = output.stdout
        #expect(output.status == 1, "\(stdout)\(output.stderr)")
        #expect(stdout.contains("PASS  tls13 suite limited [sni-resolve \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains("PASS  no limit after it [sni-resolve \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains("PASS  tls 1.2 cipher limited [sni-resolve \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains(
            "ERROR a group the server lacks [sni-resolve \(LabAddress.primary)] — tls: TLS handshake with \(LabAddress.primary):\(lab.httpsPort)"),
            "\(stdout)")
        #expect(stdout.contains("which this scenario's tls settings (curves X448) refuse"), "\(stdout)")
        #expect(stdout.contains("PASS  a group it has [sni-resolve \(LabAddress.primary)]"), "\(stdout)")
        #expect(stdout.contains("4 passed, 0 failed, 1 error"), "\(stdout)")
    }
}
