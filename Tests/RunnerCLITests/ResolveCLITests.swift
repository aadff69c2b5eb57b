import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// `runner resolve`: what each map answers for the hosts the scenarios request, asked of the
/// lab's real services (DNSPod's replica, a service that is down and falls back, a static map
/// without the host), with nothing sent to the hosts themselves.
@Suite("runner resolve", .timeLimit(.minutes(3)))
struct ResolveCLITests {
    /// A plan whose scenarios request `path` (unique to the test) through four maps; the
    /// HTTPDNS map's URL carries `probe` (unique too), so its queries can be counted.
    func plan(_ lab: Lab, path: String, probe: String) throws -> String {
        try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            domains:
              lab: {static: {api.lab.test: [127.0.0.2]}}
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1&probe=\(probe)", timeout: 10s}
              unreachable:
                httpdns: {format: dnspod, url: "http://127.0.0.9:{{http}}/d?dn={host}", timeout: 1s, fallback: lab}
              other: {static: {cdn.lab.test: [127.0.0.3]}}
            scenarios:
              - {name: static, domains: lab, request: {url: "https://api.lab.test:{{https}}\(path)"}}
              - {name: same map and host again, domains: lab, request: {url: "https://api.lab.test:{{https}}\(path)?again"}}
              - {name: httpdns, domains: tencent, request: {url: "https://api.lab.test:{{https}}\(path)"}}
              - {name: down, domains: unreachable, request: {url: "https://api.lab.test:{{https}}\(path)"}}
              - {name: not in the map, domains: other, request: {url: "https://api.lab.test:{{https}}\(path)"}}
              - {name: an IP in the URL asks no map, domains: lab, request: {url: "https://127.0.0.2:{{https}}\(path)"}, strategy: trust-override}
            """, lab: lab)
    }

    /// The table's row for `map`.
    func row(_ output: String, map: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("  \(map) ") }.map(String.init)
    }

    @Test func eachMapAnswersOnceAndNothingIsSentToTheHosts() async throws {
        let lab = try await SharedLab.get()
        let path = "/echo/resolve-\(UUID().uuidString)"
        let probe = UUID().uuidString
        let file = try plan(lab, path: path, probe: probe)
        let output = try await PackageExecutable.run("runner", ["resolve", file])
        #expect(output.status == 1, "a lookup failed: exit 1\n\(output.stdout)\(output.stderr)")
        let text = output.stdout
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(file):")
        #expect(lines.dropFirst().first?.hasPrefix("  MAP          HOST          CLIENT  LABELS  ADDRESSES") == true, "\(text)")
        #expect(lines.count == 6, "a row per map and host, none for the IP literal: \(text)")
        let staticRow = try #require(row(text, map: "lab"), "\(text)")
        #expect(staticRow.hasPrefix("  lab          api.lab.test  -       -       127.0.0.2 ") && staticRow.hasSuffix("-    answer: static map 'lab'"), "\(staticRow)")
        let tencent = try #require(row(text, map: "tencent"))
        #expect(tencent.contains(" 127.0.0.2 127.0.0.5 ::1 ") && tencent.contains("answer: HTTPDNS map 'tencent' (dnspod) via http://"), "\(tencent)")
        let ttl = tencent.components(separatedBy: " ::1").last?.split(separator: " ").first.flatMap { Int($0) }
        #expect((ttl ?? 0) > 0, "the service's TTL: \(tencent)")
        let down = try #require(row(text, map: "unreachable"))
        #expect(down.contains(" 127.0.0.2 ") && down.contains("fallback: static map 'lab' (fallback for 'unreachable'); HTTPDNS map 'unreachable' failed ("), "\(down)")
        let missing = try #require(row(text, map: "other"))
        #expect(missing.contains(" -    error: host 'api.lab.test' is not in static map 'other'"), "\(missing)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(lab.requestsReceived(path: path) == 0, "nothing is requested of the hosts themselves")
        let queries = lab.requestsArrived(target: "/httpdns/dnspod/d?dn=api.lab.test&ttl=1&probe=\(probe)&type=addrs")
        #expect(queries.count == 1, "the service is asked once for the two scenarios on its map and host")
    }

    @Test func jsonHasEveryKeyOfEveryRow() async throws {
        let lab = try await SharedLab.get()
        let file = try plan(lab, path: "/echo/resolve-json", probe: UUID().uuidString)
        let output = try await PackageExecutable.run("runner", ["resolve", "--json", file])
        #expect(output.status == 1)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["map"] as? String } == ["lab", "tencent", "unreachable", "other"])
        for row in rows {
            #expect(Set(row.keys) == ["addresses", "client", "detail", "host", "labels", "map", "pick", "plan", "source", "ttl"])
            #expect(row["client"] is NSNull && (row["labels"] as? [String: String]) == [:])
            #expect(row["pick"] is NSNull, "no map of the plan names an SDK")
            #expect(row["plan"] as? String == file && row["host"] as? String == "api.lab.test")
        }
        #expect(rows.map { $0["source"] as? String } == ["answer", "answer", "fallback", "error"])
        #expect(((rows[1]["ttl"] as? Int) ?? 0) > 0 && rows[0]["ttl"] is NSNull)
        #expect(rows[1]["addresses"] as? [String] == ["127.0.0.2", "127.0.0.5", "::1"])
        #expect(rows[3]["addresses"] as? [String] == [])
    }

    @Test func aPlanWithoutMapsToAskSaysSo() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            defaults: {domains: lab}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - {name: literal, strategy: header-only, request: {url: "http://127.0.0.2:{{http}}/echo"}}
            """, lab: lab)
        let output = try await PackageExecutable.run("runner", ["resolve", file])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("no scenario asks a domain map"), "\(output.stdout)")
    }
}

/// Client populations: `runner resolve` asks a map as each of them, through the URL or, for
/// `format: doh`, the EDNS Client Subnet option (the lab answers each its population's edges).
@Suite("Client populations on the command line", .timeLimit(.minutes(3)))
struct PopulationsCLITests {
    func plan(_ lab: Lab, probe: String, extraMap: String = "") throws -> String {
        try LabPlans.write("""
            version: 1
            clients:
              gd-mobile:  {ip: 120.196.0.1, labels: {isp: china-mobile, region: guangdong}}
              bj-unicom:  {subnet: 123.112.0.0/24, labels: {isp: china-unicom, region: beijing}}
              sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom, region: shanghai}}
            domains:
              tencent:
                httpdns: {format: dnspod, url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ttl=1&ip={client}&probe=\(probe)", clients: all}
              ali:
                httpdns: {format: alibaba, url: "http://127.0.0.2:{{http}}/httpdns/alibaba/lab/d?host={host}&ip={client}", clients: [bj-unicom]}
            \(extraMap)
            scenarios:
              - {name: t, domains: tencent, request: {url: "https://api.lab.test:{{https}}/echo"}, strategy: sni-resolve}
              - {name: a, domains: ali, request: {url: "https://api.lab.test:{{https}}/echo"}, strategy: sni-resolve}
            """, lab: lab)
    }

    @Test func resolveAsksAsEachClientAndTheServiceAnswersEachItsEdges() async throws {
        let lab = try await SharedLab.get()
        let probe = UUID().uuidString
        let file = try plan(lab, probe: probe)
        let output = try await PackageExecutable.run("runner", ["resolve", "--json", file])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let summary = rows.map { row in
            [row["map"] as? String ?? "?", row["client"] as? String ?? "-", (row["addresses"] as? [String] ?? []).joined(separator: " ")]
        }
        #expect(summary == [
            ["tencent", "gd-mobile", "127.0.0.2"], ["tencent", "bj-unicom", "127.0.0.9"], ["tencent", "sh-telecom", "127.0.0.5"],
            ["ali", "bj-unicom", "127.0.0.9"],
        ], "\(rows)")
        #expect(rows[0]["labels"] as? [String: String] == ["isp": "china-mobile", "region": "guangdong"])
        #expect(rows.allSatisfy { $0["ttl"] as? Int == 120 && $0["source"] as? String == "answer" }, "the populations' own TTL")
        // bj-unicom is a subnet: its first address goes where `{client}` is.
        let asked = lab.requestsArrived(target: "/httpdns/dnspod/d?dn=api.lab.test&ttl=1&ip=123.112.0.0&probe=\(probe)&type=addrs")
        #expect(asked.count == 1, "each client is asked once")

        let table = try await PackageExecutable.run("runner", ["resolve", file])
        let line = table.stdout.split(separator: "\n").first { $0.contains("gd-mobile") }.map(String.init) ?? ""
        #expect(line.contains(" gd-mobile ") && line.contains(" isp=china-mobile,region=guangdong ") && line.contains(" 127.0.0.2 "), "\(table.stdout)")
        #expect(line.contains("answer: HTTPDNS map 'tencent' (dnspod) as client 'gd-mobile' via http://"), "\(line)")
    }

    @Test func edgesOnAMapNotAskedAsClientsIsAPlanError() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            clients: {gd-mobile: {ip: 120.196.0.1}}
            domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
            scenarios:
              - name: edges
                domains: lab
                request: {url: "https://api.lab.test:{{https}}/echo"}
                expect: {edges: [{clients: [gd-mobile], within: [lab]}]}
            """, lab: lab)
        let check = try await PackageExecutable.run("runner", ["check", file])
        #expect(check.status == 2 && check.stdout.isEmpty)
        #expect(check.stderr.contains("\(file):8:5: error: 'expect.edges' checks where client populations are sent, but scenario 'edges' "
            + "looks its host up through domain map 'lab', which is not asked as clients: add 'clients' to an httpdns map and use it\n"),
            "\(check.stderr)")
    }

    /// The guide's plan is a valid plan: its clients and map load as written there.
    @Test func theGuidesPlanChecks() async throws {
        let file = try GuidePlan.write("populations.md")
        let check = try await PackageExecutable.run("runner", ["check", file])
        #expect(check.status == 0 && check.stdout == "\(file): ok (1 scenario)\n", "\(check.stdout)\(check.stderr)")
    }

    @Test func clientNarrowsTheLookupsToThosePopulations() async throws {
        let lab = try await SharedLab.get()
        let file = try plan(lab, probe: UUID().uuidString)
        let output = try await PackageExecutable.run("runner", ["resolve", "--json", "--client", "sh-telecom", "--client", "bj-unicom", file])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { "\($0["map"] as? String ?? "?") \($0["client"] as? String ?? "-")" }
            == ["tencent bj-unicom", "tencent sh-telecom", "ali bj-unicom"], "in the plan's order: \(rows)")
        let typo = try await PackageExecutable.run("runner", ["resolve", "--client", "sh-telcom", file])
        #expect(typo.status == 2 && typo.stdout.isEmpty)
        #expect(typo.stderr == "error: --client 'sh-telcom' is no client of the plans; did you mean 'sh-telecom'?\n", "\(typo.stderr)")
    }

    /// `format: doh` carries the client as the EDNS Client Subnet option; the lab's RFC 8484
    /// endpoint reads it with ldns and answers each population its edges.
    @Test func aDoHMapAsksAsEachClientThroughTheSubnetOption() async throws {
        let lab = try await SharedLab.get()
        let withDoH = try LabPlans.write("""
            version: 1
            defaults: {ca: "{{ca}}", strategy: sni-resolve}
            clients:
              gd-mobile:  {ip: 120.196.0.1}
              bj-unicom:  {subnet: 123.112.0.0/24}
              sh-telecom: {ip: 101.80.0.1}
            domains:
              doh: {httpdns: {format: doh, url: "https://127.0.0.2:{{https}}/dns-query", clients: all}}
            scenarios:
              - {name: d, domains: doh, request: {url: "https://api.lab.test:{{https}}/echo"}}
            """, lab: lab)
        let resolve = try await PackageExecutable.run("runner", ["resolve", "--json", "--client", "bj-unicom", "--client", "sh-telecom", withDoH])
        #expect(resolve.status == 0, "\(resolve.stdout)\(resolve.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(resolve.stdout.utf8)) as? [[String: Any]])
        let doh = rows.filter { $0["map"] as? String == "doh" }
        #expect(doh.map { "\($0["client"] as? String ?? "-") \(($0["addresses"] as? [String] ?? []).joined(separator: " "))" }
            == ["bj-unicom 127.0.0.9", "sh-telecom 127.0.0.5"], "\(rows)")
    }
}
