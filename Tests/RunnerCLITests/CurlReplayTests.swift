import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// `--curl FILE`, replayed with bash against the lab: every request arrives where the runner's
/// did — the same address, SNI, Host, method and body — and no secret is in the file.
@Suite("reproducing results with curl", .timeLimit(.minutes(3)))
struct CurlReplayTests {
    static let secret = "s3cr'et $(touch /tmp/runner-pwned) `id`"

    @Test func replayingTheFileSendsTheSameRequestsOnTheSameLanes() async throws {
        let lab = try await SharedLab.get()
        let run = UUID().uuidString.prefix(8)
        let directory = try LabPlans.temporaryDirectory()
        let bodyFile = directory.appendingPathComponent("body.bin")
        try Data([0, 1, 2, 0xFF, 0x0A, 0x27, 0x24]).write(to: bodyFile)
        let plan = try LabPlans.write("""
            version: 1
            name: replay
            defaults:
              ca: "{{ca}}"
              timeout: 5s
              domains: lab
            domains:
              lab: {static: {api.lab.test: [127.0.0.2, "::1"], sni.lab.test: [127.0.0.3]}}
              tls12: {static: {api.lab.test: [\(LabAddress.tls12)]}}
            scenarios:
              - name: every IP over SNI
                ips: all
                request: {url: "https://api.lab.test:{{https}}/echo?case=sni-\(run)"}
                expect: {status: 200}
              - name: header-only POST with a secret and hostile text
                strategy: header-only
                http: "1.1"
                request:
                  method: POST
                  url: "http://api.lab.test:{{http}}/echo?case=header-\(run)&q='$x"
                  headers: {Authorization: "Bearer ${secret:REPLAY_TOKEN}", X-Quote: "it's \\"quoted\\" $(nope)"}
                  body: "line one\\nline 'two' ${secret:REPLAY_TOKEN} `back` \\t end"
                expect: {status: 200}
              - name: trust override PUT of a file
                strategy: trust-override
                request:
                  method: PUT
                  url: "https://api.lab.test:{{https}}/echo?case=trust-\(run)"
                  body_file: "\(bodyFile.path)"
                expect: {status: 200}
              - name: what an iOS app offers, on both lanes
                domains: tls12
                strategy: [sni-resolve, trust-override]
                tls: {profile: ios-ats, curves: [P-256, X25519]}
                request: {url: "https://api.lab.test:{{https}}/echo?case=ats-\(run)"}
                expect: {status: 200, tls: {version: "1.2"}}
              - name: sni-only host, failing on purpose
                request: {url: "https://sni.lab.test:{{https}}/echo?case=fail-\(run)"}
                expect: {status: 201}
            """, lab: lab)
        let script = directory.appendingPathComponent("replay.sh").path
        let environment = ["REPLAY_TOKEN": Self.secret]
        let output = try await PackageExecutable.run(
            "runner", [plan, "--curl", script, "--verbose", "--color", "never"], environment: environment)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")

        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(!text.contains("s3cr"), "\(text)")
        #expect(text.contains("\"$REPLAY_TOKEN\""), "\(text)")
        #expect(text.contains("# Secrets are read from the environment: set REPLAY_TOKEN before running."), "\(text)")
        #expect(text.contains("openssl s_client -connect '127.0.0.2:\(lab.httpsPort)' -noservername -verify_hostname 'api.lab.test'"), "\(text)")
        #expect(text.contains("--connect-to 'api.lab.test:\(lab.httpsPort):[::1]:\(lab.httpsPort)'"), "\(text)")
        // The failing result's evidence shows its line too, the secret never.
        let failing = output.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("        curl: ") }
        #expect(failing.count == 1 && failing[0].contains("--connect-to 'sni.lab.test:\(lab.httpsPort):127.0.0.3:\(lab.httpsPort)'"), "\(output.stdout)")
        #expect(!output.stdout.contains("s3cr"))

        let targets = [
            "/echo?case=sni-\(run)", "/echo?case=header-\(run)&q='$x", "/echo?case=trust-\(run)", "/echo?case=fail-\(run)",
            "/echo?case=ats-\(run)",
        ]
        let before = targets.map { lab.requestsArrived(target: $0) }
        #expect(before.map(\.count) == [2, 1, 1, 1, 2], "\(before)")
        #expect(text.contains("--tlsv1.2 --ciphers 'ECDHE-ECDSA-AES256-GCM-SHA384:"), "\(text)")
        #expect(text.contains("-min_protocol TLSv1.2 -cipher 'ECDHE-ECDSA-AES256-GCM-SHA384:"), "\(text)")

        let replay = try await PackageExecutable.runTool(
            "/bin/bash", [script], environment: environment, directory: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/runner-pwned"))

        for (target, runnerOwn) in zip(targets, before) {
            let all = lab.requestsArrived(target: target)
            #expect(all.count == runnerOwn.count * 2, "\(target): \(all)")
            let replayed = Array(all.dropFirst(runnerOwn.count))
            // Same address, SNI, TLS, Host, method and body; the order of `ips: all` may differ.
            #expect(Set(replayed.map(Fingerprint.init)) == Set(runnerOwn.map(Fingerprint.init)), "\(target)")
        }
        let sni = before[0].map(\.sni)
        #expect(sni == ["api.lab.test", "api.lab.test"])
        #expect(before[2].first?.sni == nil && before[2].first?.tls == true)
        #expect(before[1].first?.host == "api.lab.test:\(lab.httpPort)")
    }

    /// What must match between the runner's request and curl's.
    struct Fingerprint: Hashable {
        var address: String
        var sni: String?
        var tls: Bool
        var host: String?
        var method: String
        var bodySHA256: String

        init(_ arrival: LabArrival) {
            address = arrival.address
            sni = arrival.sni
            tls = arrival.tls
            host = arrival.host
            method = arrival.method
            bodySHA256 = arrival.bodySHA256
        }
    }
}
