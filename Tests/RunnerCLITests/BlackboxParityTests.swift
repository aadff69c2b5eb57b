import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// blackbox_exporter's dashboards and alert rules on `runner serve`, as a user runs them: a real
/// Prometheus with monitoring/prometheus-blackbox.yml (each result its own `instance`), its
/// query API asked the dashboards' queries and the alert rules' expressions.
@Suite("blackbox_exporter's queries and alerts on runner serve", .timeLimit(.minutes(3)))
struct BlackboxParityTests {
    /// A healthy HTTPS host, one that answers 503, a dead address and an expired certificate.
    static let plan = """
        version: 1
        name: bb
        defaults: {timeout: 10s, ca: {{ca}}, domains: lab, strategy: sni-resolve}
        domains:
          lab:
            static:
              api.lab.test: [127.0.0.2]
              dead.lab.test: [127.0.0.9]
              expired.lab.test: [127.0.0.4]
        scenarios:
          - {name: healthy, request: {url: "https://api.lab.test:{{https}}/echo"}}
          - {name: failing, request: {url: "https://api.lab.test:{{https}}/status/503"}, expect: {status: 200}}
          - {name: dead, request: {url: "https://dead.lab.test:{{https}}/"}}
          - {name: expired, request: {url: "https://expired.lab.test:{{https}}/"}}
        """

    /// Each result's `instance`, as the configuration's relabelling makes it.
    static let instances = [
        "healthy": "bb/healthy [sni-resolve 127.0.0.2]", "failing": "bb/failing [sni-resolve 127.0.0.2]",
        "dead": "bb/dead [sni-resolve 127.0.0.9]", "expired": "bb/expired [sni-resolve 127.0.0.4]",
    ]

    /// Dashboard-style queries, one (or more) per series: each must return data by instance.
    static let dashboardQueries: [(query: String, results: Set<String>)] = [
        ("avg by (instance) (probe_success)", ["healthy", "failing", "dead", "expired"]),
        ("avg by (instance) (probe_duration_seconds)", ["healthy", "failing", "dead", "expired"]),
        ("sum by (instance, phase) (probe_http_duration_seconds)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_status_code)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_version)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_redirects)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_ssl)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_ip_protocol)", ["healthy", "failing", "dead", "expired"]),
        ("avg by (instance) (probe_dns_lookup_time_seconds)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_content_length)", ["healthy", "failing", "dead", "expired"]),
        ("max by (instance) (probe_http_uncompressed_body_length)", ["healthy", "failing", "dead", "expired"]),
        ("min by (instance) (probe_ssl_earliest_cert_expiry)", ["healthy", "failing", "expired"]),
        ("max by (instance, version) (probe_tls_version_info)", ["healthy", "failing", "expired"]),
        ("max by (instance, cipher) (probe_tls_cipher_info)", ["healthy", "failing", "expired"]),
        ("min by (instance) (probe_ssl_last_chain_expiry_timestamp_seconds)", ["healthy", "failing"]),
        ("max by (instance, fingerprint_sha256, subject, issuer, subjectalternative, serialnumber) (probe_ssl_last_chain_info)",
         ["healthy", "failing"]),
    ]

    /// Alert expressions as blackbox_exporter's users write them (awesome-prometheus-alerts, the
    /// community mixins), and the results each must fire for: never the healthy one.
    static let alerts: [(expression: String, firing: Set<String>)] = [
        ("probe_success == 0", ["failing", "dead", "expired"]),
        ("probe_http_status_code <= 199 OR probe_http_status_code >= 400", ["failing", "dead", "expired"]),
        ("probe_ssl_earliest_cert_expiry - time() < 86400 * 20", ["expired"]),
        ("round((probe_ssl_earliest_cert_expiry - time()) / 86400, 0.1) < 0", ["expired"]),
    ]

    @Test("the dashboards' queries have data for each result, and the alerts fire for the failing, dead and expired ones only")
    func parity() async throws {
        let lab = try await SharedLab.get()
        try await ServeUnderPrometheus.run(plan: try LabPlans.write(Self.plan, lab: lab), configuration: { target in
            // The documented configuration, scraping this runner every second.
            let documented = try String(
                contentsOf: Repository.root.appendingPathComponent("monitoring/prometheus-blackbox.yml"), encoding: .utf8)
            let configuration = documented.replacingOccurrences(of: "probe-sh.example.net:9469", with: target)
                .replacingOccurrences(of: "30s", with: "1s").replacingOccurrences(of: "10s", with: "1s")
            #expect(configuration.contains(target), "the documented target is not where the test put it")
            return configuration
        }) { prometheus, _ in
            try await check(prometheus)
        }
    }

    /// The instances an instant query returned, by the plan's scenario names.
    static func scenarios(_ results: [[String: Any]]) -> Set<String> {
        let byInstance = Dictionary(uniqueKeysWithValues: instances.map { ($1, $0) })
        return Set(results.compactMap { ($0["metric"] as? [String: String])?["instance"].flatMap { byInstance[$0] } })
    }

    func check(_ prometheus: PrometheusServer) async throws {
        // Every series of the newest families scraped, each result under its own instance.
        try await PrometheusScrapeTests.waitUntil("Prometheus to have every result's probe_ssl_last_chain_info", within: .seconds(30)) {
            let chains = Self.scenarios(try await prometheus.query("probe_ssl_last_chain_info"))
            let results = Self.scenarios(try await prometheus.query("probe_success"))
            return chains == ["healthy", "failing"] && results.count == 4
        }
        for (query, expected) in Self.dashboardQueries {
            let results = try await prometheus.query(query)
            #expect(Self.scenarios(results) == expected, "\(query): \(results)")
        }
        // Values as blackbox_exporter means them.
        let value = { (query: String, scenario: String) async throws -> String? in
            try await prometheus.query(query).first { ($0["metric"] as? [String: String])?["instance"] == Self.instances[scenario] }
                .flatMap { ($0["value"] as? [Any])?.last as? String }
        }
        #expect(try await value("probe_http_ssl", "healthy") == "1")
        #expect(try await value("probe_http_ssl", "dead") == "0")
        #expect(try await value("probe_ip_protocol", "healthy") == "4")
        #expect(try await value("probe_http_status_code", "dead") == "0")
        #expect(try await value("probe_http_status_code", "failing") == "503")
        let chain = try await prometheus.query(#"probe_ssl_last_chain_info{instance="bb/healthy [sni-resolve 127.0.0.2]"}"#)
        let labels = try #require(chain.first?["metric"] as? [String: String])
        #expect(labels["subject"] == "CN=api.lab.test,O=runner lab" && labels["issuer"] == "CN=runner lab CA,O=runner lab", "\(labels)")
        #expect(labels["subjectalternative"]?.hasPrefix("api.lab.test,") == true && labels["fingerprint_sha256"]?.count == 64, "\(labels)")
        for (expression, firing) in Self.alerts {
            let results = try await prometheus.query(expression)
            #expect(Self.scenarios(results) == firing, "\(expression): \(results)")
        }
    }
}
