import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// monitoring/grafana/runner.json, the runner's own dashboard: every query of every panel, as
/// Grafana sends it (`$plan` as its "All" value), asked of a real Prometheus scraping `runner
/// serve` on a plan with each thing the dashboard shows (strategies × IPs, an HTTPDNS map asked
/// as client populations, pins, a resolver check, an app's own trust files), must return data.
@Suite("The Grafana dashboard's queries", .timeLimit(.minutes(3)))
struct GrafanaDashboardTests {
    static let dashboard = Repository.root.appendingPathComponent("monitoring/grafana/runner.json")

    /// Every panel's title and query, in the dashboard's order.
    static func queries() throws -> [(panel: String, expr: String)] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dashboard)) as? [String: Any], "not a JSON object")
        let panels = try #require(document["panels"] as? [[String: Any]])
        return panels.flatMap { panel in
            ((panel["targets"] as? [[String: Any]]) ?? []).compactMap { target in
                (target["expr"] as? String).map { (panel["title"] as? String ?? "?", $0) }
            }
        }
    }

    /// Grafana's variables as it fills them: `$plan` with "All" selected (its `allValue`).
    static func filled(_ expr: String) -> String {
        expr.replacingOccurrences(of: "$plan", with: ".*").replacingOccurrences(of: "$__rate_interval", with: "1m")
    }

    @Test("the dashboard is what Grafana imports: a datasource variable, a plan variable, every panel on it")
    func shape() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dashboard)) as? [String: Any])
        let variables = ((document["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(variables == ["datasource", "plan"])
        let queries = try Self.queries()
        #expect(queries.count >= 15, "\(queries)")
        for (panel, expr) in queries {
            #expect(!expr.isEmpty, "\(panel)")
            // Every result-level query follows the plan picked, so the dashboard can be narrowed.
            if expr.contains("probe_") || expr.contains("runner_result") {
                #expect(expr.contains(#"plan=~"$plan""#), "\(panel): \(expr)")
            }
        }
    }

    @Test("every query returns data from runner serve on a plan with each feature")
    func everyQueryHasData() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let pin = try await MobileTrustCLITests.pin(ofPEM: lab.primaryLeafPEM, in: directory)
        // An app whose Network Security Config pins the current leaf until 2099 (its expiry
        // panel), and OkHttp the same leaf alone (a no-backup-pin warning).
        let planFolder = try LabPlans.temporaryDirectory()
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
                <domain-config><domain>api.lab.test</domain>
                    <pin-set expiration="2099-01-01"><pin digest="SHA-256">\(pin.dropFirst("sha256/".count))</pin></pin-set>
                </domain-config>
            </network-security-config>
            """.write(to: planFolder.appendingPathComponent("nsc.xml"), atomically: true, encoding: .utf8)
        let plan = planFolder.appendingPathComponent("plan.yaml").path
        try LabPlans.fill("""
            version: 1
            name: dashboard
            apps:
              shop: {android: {network_security_config: nsc.xml}, okhttp: {pins: {api.lab.test: ["\(pin)"]}}}
            clients:
              gd-mobile: {ip: 120.196.0.1, labels: {isp: china-mobile}}
              sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom}}
            defaults: {timeout: 10s, ca: "{{ca}}", strategy: sni-resolve}
            domains:
              edges: {static: {api.lab.test: [127.0.0.2, 127.0.0.5]}}
              tencent:
                httpdns:
                  format: dnspod
                  url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip={client}"
                  clients: all
                  sdk: {profile: tencent-android}
            scenarios:
              - name: pinned on every edge
                domains: edges
                ips: all
                strategy: [sni-resolve, trust-override]
                app: shop
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {certificate: {pins: ["\(pin)"]}}
              - name: as each population
                domains: tencent
                request: {url: "https://api.lab.test:{{https}}/echo"}
              - name: the resolver gives the shipped addresses
                domains: edges
                strategy: system
                ip_version: 4
                resolver: "127.0.0.2:{{dns}}"
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: edges}}
            """, lab: lab).write(toFile: plan, atomically: true, encoding: .utf8)
        let queries = try Self.queries()
        try await ServeUnderPrometheus.run(plan: plan) { prometheus, _ in
            try await PrometheusScrapeTests.waitUntil("Prometheus to have the populations and the resolver check", within: .seconds(30)) {
                for name in [
                    "runner_client_edges", "runner_dns_foreign_addresses", "runner_certificate_pin_match", "runner_app_policy_problems",
                    "runner_app_pick_success",
                ] {
                    if try await prometheus.query(name).isEmpty { return false }
                }
                return true
            }
            for (panel, expr) in queries {
                let results = try await prometheus.query(Self.filled(expr))
                #expect(!results.isEmpty, "panel '\(panel)': no data for \(Self.filled(expr))")
            }
        }
    }
}
