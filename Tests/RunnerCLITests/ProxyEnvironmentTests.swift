import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// Proxy variables in the environment (a CI runner often has them) are ignored: a transfer
/// that went through a proxy would connect to the proxy, not to the IP the strategy chose.
@Suite("Proxy environment variables", .timeLimit(.minutes(3)))
struct ProxyEnvironmentTests {
    /// Every spelling libcurl reads, pointing at a port where nothing listens.
    static let proxies: [String: String] = [
        "http_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
        "all_proxy": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9", "no_proxy": "", "NO_PROXY": "",
    ]

    /// Guards the guard: the same variables do send curl itself to the dead proxy.
    @Test func curlHonoursTheVariables() async throws {
        let lab = try await SharedLab.get()
        let environment = ProcessInfo.processInfo.environment.merging(Self.proxies) { _, proxy in proxy }
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["curl", "--silent", "--max-time", "10", "http://\(LabAddress.primary):\(lab.httpPort)/echo"],
                environment: environment)
        }
        #expect(output.termination == .exited(7), "curl should fail to reach the proxy: \(output.termination)")
    }

    @Test func theRunnerConnectsStraightToThePinnedIPs() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", domains: lab}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - name: plain
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
              - name: tls
                strategy: [sni-resolve, trust-override]
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {body: {json: {"$.local_address": 127.0.0.2}}}
            """, lab: lab)
        let output = try await PackageExecutable.run("runner", [plan], environment: Self.proxies)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.hasSuffix("3 passed, 0 failed, 0 errors\n"), "\(output.stdout)")
    }
}
