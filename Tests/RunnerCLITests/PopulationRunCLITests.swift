import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// A run on a map asked as client populations, against the lab's DNSPod replica, which answers
/// each population its own edges (`LabDNS.populations`): gd-mobile and gd-telecom the primary
/// (one edge two populations share), bj-unicom a dead edge, sh-telecom the replica (another
/// region's edge).
@Suite("Runs per client population", .timeLimit(.minutes(3)))
struct PopulationRunCLITests {
    func plan(_ lab: Lab, path: String, ips: String = "all", maps: String = "", scenarios: String = "") throws -> String {
        try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            clients:
              gd-mobile:  {ip: 120.196.0.1, labels: {isp: china-mobile, region: guangdong}}
              gd-telecom: {ip: 113.96.0.1, labels: {isp: china-telecom, region: guangdong}}
              bj-unicom:  {subnet: 123.112.0.0/24, labels: {isp: china-unicom, region: beijing}}
              sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom, region: shanghai}}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip={client}", clients: all}
              south: {static: {api.lab.test: [127.0.0.2]}}
            \(maps)
            scenarios:
              - name: edges
                domains: tencent
                ips: \(ips)
                request: {url: "https://api.lab.test:{{https}}\(path)"}
                expect:
                  status: 200
                  edges:
                    - {clients: {region: guangdong}, within: [127.0.0.0/30]}
                    - {clients: [sh-telecom, bj-unicom], within: [south, 127.0.0.9]}
            \(scenarios)
            """, lab: lab)
    }

    func results(_ json: String) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let suites = try #require(report["suites"] as? [[String: Any]])
        return try #require(suites.first?["results"] as? [[String: Any]])
    }

    func clients(of result: [String: Any]) -> [String] {
        ((result["evidence"] as? [String: Any])?["clients"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func oneResultPerDistinctAddressNamingItsPopulationsAndAMissFailsAsScheduling() async throws {
        let lab = try await SharedLab.get()
        let path = "/echo?run=\(UUID().uuidString)"
        let file = try plan(lab, path: path)
        let directory = try LabPlans.temporaryDirectory()
        let json = directory.appendingPathComponent("report.json").path
        let junit = directory.appendingPathComponent("junit.xml").path
        let html = directory.appendingPathComponent("report.html").path
        let output = try await PackageExecutable.run(
            "runner", [file, "-v", "--json", json, "--junit", junit, "--html", html, "--color", "never"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")

        let results = try results(json)
        #expect(results.map { $0["ip"] as? String } == ["127.0.0.2", "127.0.0.9", "127.0.0.5"], "one per distinct address: \(results)")
        #expect(results.map(clients) == [["gd-mobile", "gd-telecom"], ["bj-unicom"], ["sh-telecom"]])
        #expect(results.map { $0["outcome"] as? String } == ["passed", "error", "failed"])
        #expect(lab.requestsArrived(target: path).map(\.address).sorted() == ["127.0.0.2", "127.0.0.5"], "the edge gd-mobile and gd-telecom share is requested once")
        // A run that timed out under load gives fewer results: a failure, not a crash of the suite.
        try #require(results.count == 3, "\(results)")
        let labels = ((results[0]["evidence"] as? [String: Any])?["clients"] as? [[String: Any]])?.first?["labels"] as? [String: String]
        #expect(labels == ["isp": "china-mobile", "region": "guangdong"])
        let problems = results[2]["problems"] as? [[String: Any]] ?? []
        #expect(problems.first?["kind"] as? String == "scheduling", "\(problems)")
        #expect(problems.first?["actual"] as? String == "sh-telecom (isp=china-telecom, region=shanghai) was sent 127.0.0.5")
        #expect(problems.first?["expected"] as? String == "south (127.0.0.2), 127.0.0.9")

        // The request to the replica passed: the result fails on where sh-telecom was sent.
        #expect(output.stdout.contains("edges [sni-resolve 127.0.0.5]"), "\(output.stdout)")
        #expect(output.stdout.contains("sh-telecom (isp=china-telecom, region=shanghai) was sent 127.0.0.5, outside south (127.0.0.2), 127.0.0.9"), "\(output.stdout)")
        #expect(output.stdout.contains("clients: gd-mobile (isp=china-mobile, region=guangdong), gd-telecom (isp=china-telecom, region=guangdong)"), "\(output.stdout)")

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<failure type=\"scheduling\" message=\"sh-telecom (isp=china-telecom, region=shanghai) was sent 127.0.0.5, outside south (127.0.0.2), 127.0.0.9\""), "\(xml)")
        // The suite's properties: each population's answer.
        #expect(xml.contains("<property name=\"domains.tencent.api.lab.test as bj-unicom\" value=\"127.0.0.9 (HTTPDNS map &apos;tencent&apos; (dnspod) as client &apos;bj-unicom&apos; via http://"), "\(xml)")
        let validation = try await PackageExecutable.runTool("/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, junit])
        #expect(validation.status == 0, "\(validation.stderr)")

        // The HTML report's clients × addresses matrix: a row per client, a cell where it was sent,
        // coloured by the address's result and linking to it.
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let table = try #require(page.range(of: "<table class=\"matrix clients\">").map { page[$0.lowerBound...] }
            .flatMap { rest in rest.range(of: "</table>").map { String(rest[..<$0.upperBound]) } })
        #expect(table.contains("<th scope=\"col\">127.0.0.2</th><th scope=\"col\">127.0.0.9</th><th scope=\"col\">127.0.0.5</th>"), "\(table)")
        let rows = table.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().map { row in
            (row.components(separatedBy: "</th>").first ?? "", row.components(separatedBy: "data-status=\"").dropFirst().map { $0.prefix { $0 != "\"" } })
        }
        #expect(rows.map(\.0) == [
            "gd-mobile (isp=china-mobile, region=guangdong)", "gd-telecom (isp=china-telecom, region=guangdong)",
            "bj-unicom (isp=china-unicom, region=beijing)", "sh-telecom (isp=china-telecom, region=shanghai)",
        ])
        #expect(rows.map { $0.1.map(String.init) } == [["passed"], ["passed"], ["error"], ["failed"]], "\(table)")
        #expect(table.components(separatedBy: "class=\"none\" title=\"not sent there\"").count - 1 == 8)

        // The JSON report reads back: merge keeps the clients and the problem's kind.
        let merged = directory.appendingPathComponent("merged.json").path
        let merge = try await PackageExecutable.run("runner", ["merge", json, "--json", merged])
        #expect(merge.status == 1 || merge.status == 0, "\(merge.stderr)")
        let back = try self.results(merged)
        #expect(back.map(clients) == results.map(clients))
        #expect((back[2]["problems"] as? [[String: Any]])?.first?["kind"] as? String == "scheduling")
    }

    /// The summary by client, and the client series (promtool-clean, the client's labels on them).
    @Test func theSummaryAndTheMetricsCountEachPopulationsEdges() async throws {
        let lab = try await SharedLab.get()
        let file = try plan(lab, path: "/echo?run=\(UUID().uuidString)")
        let metrics = try LabPlans.temporaryDirectory().appendingPathComponent("populations.prom").path
        let output = try await PackageExecutable.run("runner", [file, "--metrics", metrics, "--color", "never"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("""
            Clients:
              plan: edges
                gd-mobile: 1/1 edges pass
                gd-telecom: 1/1 edges pass
                bj-unicom: 0/1 edges pass; failing: 127.0.0.9 connect
                sh-telecom: 0/1 edges pass; failing: 127.0.0.5 scheduling; 1 scheduling miss

            """), "\(output.stdout)")
        #expect(output.stdout.contains("failing: 127.0.0.9 connect, 127.0.0.5 scheduling\n"), "the group line: \(output.stdout)")

        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        func sample(_ family: String, _ client: String) -> String? {
            lines.first { $0.hasPrefix(family + "{") && $0.contains("client=\"\(client)\"") }?.split(separator: " ").last.map(String.init)
        }
        #expect(["gd-mobile", "gd-telecom", "bj-unicom", "sh-telecom"].map { sample("runner_client_edges", $0) } == ["1", "1", "1", "1"])
        #expect(["gd-mobile", "gd-telecom", "bj-unicom", "sh-telecom"].map { sample("runner_client_edges_passing", $0) } == ["1", "1", "0", "0"])
        #expect(["gd-mobile", "gd-telecom", "bj-unicom", "sh-telecom"].map { sample("runner_scheduling_misses", $0) } == ["0", "0", "0", "1"])
        #expect(lines.contains("runner_client_edges_passing{plan=\"plan\",scenario=\"edges\",client=\"bj-unicom\",isp=\"china-unicom\",region=\"beijing\"} 0"), "\(text)")
        // The service's lookups, one series per population asked as.
        #expect(lines.filter { $0.hasPrefix("runner_httpdns_lookup_success{plan=\"plan\",map=\"tencent\",host=\"api.lab.test\",client=") }
            == ["bj-unicom", "gd-mobile", "gd-telecom", "sh-telecom"].map {
                "runner_httpdns_lookup_success{plan=\"plan\",map=\"tencent\",host=\"api.lab.test\",client=\"\($0)\"} 1"
            }, "\(text)")
        let promtool = try await Exposition.promtool(text)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(text) == [])
    }

    /// `--client` narrows a run to those populations: only their lookups and edges; a scenario
    /// on a map that asks as this machine still runs; a name no plan has is an error.
    @Test func clientNarrowsARunToThosePopulations() async throws {
        let lab = try await SharedLab.get()
        let path = "/echo?run=\(UUID().uuidString)"
        let file = try plan(lab, path: path, scenarios: """
              - {name: as this machine, domains: south, request: {url: "https://api.lab.test:{{https}}\(path)"}}
            """)
        let json = try LabPlans.temporaryDirectory().appendingPathComponent("narrowed.json").path
        let output = try await PackageExecutable.run("runner", [file, "--client", "sh-telecom", "--client", "gd-telecom", "--json", json])
        #expect(output.status == 1, "sh-telecom's miss: \(output.stdout)\(output.stderr)")
        let results = try results(json)
        #expect(results.map { "\($0["scenario"] as? String ?? "?") \($0["ip"] as? String ?? "-") \(clients(of: $0))" }
            == ["edges 127.0.0.2 [\"gd-telecom\"]", "edges 127.0.0.5 [\"sh-telecom\"]", "as this machine 127.0.0.2 []"], "\(results)")
        #expect(output.stdout.contains("    gd-telecom: 1/1 edges pass\n    sh-telecom: 0/1"), "\(output.stdout)")
        #expect(!output.stdout.contains("bj-unicom"), "\(output.stdout)")

        let typo = try await PackageExecutable.run("runner", [file, "--client", "sh-telcom"])
        #expect(typo.status == 2 && typo.stdout.isEmpty)
        #expect(typo.stderr == "error: --client 'sh-telcom' is no client of the plans; did you mean 'sh-telecom'?\n", "\(typo.stderr)")
    }

    /// A redirect to another host is looked up as the result's first population: the
    /// service sees that client's `ip=` for the new host, and no other.
    @Test func aRedirectIsLookedUpAsTheResultsFirstPopulation() async throws {
        let lab = try await SharedLab.get()
        let probe = UUID().uuidString
        let file = try LabPlans.write("""
            version: 1
            clients:
              gd-mobile:  {ip: 120.196.0.1}
              gd-telecom: {ip: 113.96.0.1}
              sh-telecom: {ip: 101.80.0.1}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip={client}&probe=\(probe)", clients: all}
            scenarios:
              - name: redirected
                domains: tencent
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/redirect/302?to=http://cname.lab.test:{{http}}/echo"}
                expect: {status: 200}
            """, lab: lab)
        let output = try await PackageExecutable.run("runner", [file, "--color", "never"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        func asked(_ ip: String) -> Int {
            lab.requestsArrived(target: "/httpdns/dnspod/d?dn=cname.lab.test&ip=\(ip)&probe=\(probe)&type=addrs").count
        }
        // 127.0.0.2 is gd-mobile's and gd-telecom's: its redirect asks as gd-mobile; 127.0.0.5 is sh-telecom's.
        let counts: [Int] = [asked("120.196.0.1"), asked("113.96.0.1"), asked("101.80.0.1")]
        #expect(counts == [1, 0, 1], "\(output.stdout)")
    }

    @Test func ipsFirstTakesEachPopulationsFirstAddressAndAFailedLookupIsThatPopulations() async throws {
        let lab = try await SharedLab.get()
        let path = "/echo?run=\(UUID().uuidString)"
        // The unreachable map is asked as two clients: each lookup fails, one errored result names them.
        let file = try plan(
            lab, path: path, ips: "first",
            maps: """
              unreachable:
                httpdns: {format: dnspod, url: "http://127.0.0.9:{{http}}/d?dn={host}&ip={client}", timeout: 1s, clients: [gd-mobile, sh-telecom]}
            """,
            scenarios: """
              - {name: down, domains: unreachable, request: {url: "https://api.lab.test:{{https}}\(path)"}}
            """)
        let json = try LabPlans.temporaryDirectory().appendingPathComponent("first.json").path
        let output = try await PackageExecutable.run("runner", [file, "--json", json])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let results = try results(json)
        #expect(results.map { "\($0["scenario"] as? String ?? "?") \($0["ip"] as? String ?? "-")" }
            == ["edges 127.0.0.2", "edges 127.0.0.9", "edges 127.0.0.5", "down -"], "\(results)")
        try #require(results.count == 4, "\(results)")
        let down = results[3]
        #expect(down["outcome"] as? String == "error" && clients(of: down) == ["gd-mobile", "sh-telecom"])
        let message = (down["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.hasPrefix("as gd-mobile: ") && message.contains("; as sh-telecom: "), "\(message)")
    }
}
