import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// gRPC health checks and calls by IP direct against the lab's grpc-swift servers: TLS on
/// 127.0.0.2 (one certificate) and 127.0.0.3 (its certificate by SNI), h2c on 127.0.0.2, and
/// the HTTP/1.1-only 127.0.0.5; read from the console, the JSON report and the metrics, and
/// by a real Prometheus scraping `runner serve`.
@Suite("gRPC calls against the lab", .timeLimit(.minutes(3)))
struct GRPCCLITests {
    static let plan = """
        version: 1
        name: grpc
        defaults: {ca: "{{ca}}", domains: lab}
        domains:
          lab: {static: {api.lab.test: [127.0.0.2], sni.lab.test: [127.0.0.3]}}
          http1: {static: {api.lab.test: [127.0.0.5]}}
        scenarios:
          - {name: health, strategy: [sni-resolve, trust-override], request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: payments}}}
          - {name: server over h2c, strategy: header-only, request: {url: "http://api.lab.test:{{grpc}}", grpc: {health: ""}}}
          - {name: inventory, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: inventory}}}
          - {name: unknown service, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: nope}}}
          - {name: unknown expected, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: nope}}, expect: {grpc: {status: NOT_FOUND}}}
          - {name: echo, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {method: /lab.Echo/Echo, message_base64: "CgR0ZXN0", metadata: {x-tenant: lab}}}}
          - {name: draining, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {method: /lab.Echo/Fail}}}
          - {name: sni only, strategy: [sni-resolve, trust-override], request: {url: "https://sni.lab.test:{{grpc_tls}}", grpc: {health: ""}}}
          - {name: http1 only, domains: http1, request: {url: "https://api.lab.test:{{https}}", grpc: {health: ""}}}
        """

    static func fill(_ lab: Lab) -> String {
        LabPlans.fill(plan, lab: lab)
    }

    @Test("each call passes and fails as the lab is set, under every strategy and over h2c, with its status in every report")
    func callsPassAndFailAsTheLabIsSet() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write(Self.plan, lab: lab)
        let folder = try LabPlans.temporaryDirectory()
        let json = folder.appendingPathComponent("grpc.json"), junit = folder.appendingPathComponent("grpc.xml")
        let metrics = folder.appendingPathComponent("grpc.prom")
        let output = try await PackageExecutable.run(
            "runner", [file, "--color", "never", "--json", json.path, "--junit", junit.path, "--metrics", metrics.path])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        for line in [
            "PASS  health [sni-resolve 127.0.0.2]", "PASS  health [trust-override 127.0.0.2]",
            "PASS  server over h2c [header-only 127.0.0.2]", "PASS  unknown expected [sni-resolve 127.0.0.2]",
            "PASS  echo [sni-resolve 127.0.0.2]", "PASS  sni only [sni-resolve 127.0.0.3]",
            "FAIL  inventory [sni-resolve 127.0.0.2]  200  h2",
            "— grpc serving: expected SERVING, got NOT_SERVING",
            "— grpc status: expected OK, got NOT_FOUND: unknown service 'nope'",
            "— grpc status: expected OK, got UNAVAILABLE: edge is draining: 50% done",
            "— grpc: expected an answer over HTTP/2, got HTTP/1.1: the server offered no h2, so it takes no gRPC call here",
            "ERROR sni only [trust-override 127.0.0.3] — tls:",
        ] {
            #expect(output.stdout.contains(line), "\(line)\n\(output.stdout)")
        }

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let results = try #require((report["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        func grpc(_ scenario: String) -> [String: Any]? {
            (results.first { $0["scenario"] as? String == scenario }?["evidence"] as? [String: Any])?["grpc"] as? [String: Any]
        }
        #expect(grpc("health")?["serving"] as? String == "SERVING" && grpc("health")?["status_name"] as? String == "OK")
        #expect(grpc("unknown service")?["status"] as? Int == 5 && grpc("unknown service")?["message"] as? String == "unknown service 'nope'")
        #expect(grpc("draining")?["message"] as? String == "edge is draining: 50% done", "percent-decoded")
        let problems = results.first { $0["scenario"] as? String == "inventory" }?["problems"] as? [[String: Any]]
        #expect(problems?.first?["kind"] as? String == "grpc")

        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<failure type=\"grpc\""), "\(xml)")
        #expect(xml.contains("grpc: NOT_FOUND (5): unknown service &apos;nope&apos;") || xml.contains("grpc: NOT_FOUND (5): unknown service 'nope'"))

        let exposition = try String(contentsOf: metrics, encoding: .utf8)
        for sample in [
            #"probe_grpc_status_code{plan="grpc",scenario="draining",strategy="sni-resolve",ip="127.0.0.2"} 14"#,
            #"probe_grpc_healthcheck_response{plan="grpc",scenario="inventory",strategy="sni-resolve",ip="127.0.0.2",serving_status="NOT_SERVING"} 1"#,
            #"probe_grpc_ssl{plan="grpc",scenario="server over h2c",strategy="header-only",ip="127.0.0.2"} 0"#,
            #"probe_grpc_duration_seconds{plan="grpc",scenario="health",strategy="sni-resolve",ip="127.0.0.2",phase="check"}"#,
        ] {
            #expect(exposition.contains(sample), "\(sample)\n\(exposition)")
        }
        let promtool = try await Exposition.promtool(exposition)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(exposition) == [])
    }

    @Test("a real Prometheus scraping runner serve reads blackbox's gRPC series")
    func prometheusReadsTheGRPCSeries() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            name: grpc-serve
            defaults: {ca: "{{ca}}", domains: lab}
            domains:
              lab: {static: {api.lab.test: [127.0.0.2]}}
            scenarios:
              - {name: health, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: payments}}}
              - {name: inventory, request: {url: "https://api.lab.test:{{grpc_tls}}", grpc: {health: inventory}}}
            """, lab: lab)
        try await ServeUnderPrometheus.run(plan: plan) { prometheus, _ in
            try await PrometheusScrapeTests.waitUntil("Prometheus to have the gRPC series", within: .seconds(30)) {
                try await !prometheus.query("probe_grpc_healthcheck_response").isEmpty
            }
            let serving = try await prometheus.query(#"probe_grpc_healthcheck_response{serving_status="SERVING"} == 1"#)
            #expect(serving.compactMap { ($0["metric"] as? [String: String])?["scenario"] } == ["health"], "\(serving)")
            let notServing = try await prometheus.query(#"probe_grpc_healthcheck_response{serving_status="NOT_SERVING"} == 1"#)
            #expect(notServing.compactMap { ($0["metric"] as? [String: String])?["scenario"] } == ["inventory"], "\(notServing)")
            #expect(try await prometheus.query("probe_grpc_status_code == 0").count == 2)
            #expect(try await prometheus.query("probe_grpc_ssl == 1").count == 2)
        }
    }
}
