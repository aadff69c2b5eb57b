import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// The SDK's pick (`sdk:`) against the lab: its Alibaba replica answers `split.lab.test` with a
/// live edge (127.0.0.2) and a dead one (127.0.0.9, nothing listens), and `api.lab.test` with
/// two IPv4 edges and `::1`. Each test reads the console and the JSON report a user reads. One
/// at a time: the lab's slow rank edge holds back one ranking connect at a time (a second in its
/// window gets in at once), and several tests rank it.
@Suite("The SDK's pick", .serialized, .timeLimit(.minutes(3)))
struct PickCLITests {
    func run(_ arguments: [String]) async throws -> ProcessOutput {
        try await PackageExecutable.run("runner", arguments + ["--color", "never"])
    }

    /// Each result's `evidence.picked_by` and `pick`, by IP, from the JSON report at `path`.
    func picks(_ path: URL) throws -> [String: (pickedBy: [String]?, pick: [String: Any]?, problems: [String])] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        let results = try #require((json["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        var picks: [String: (pickedBy: [String]?, pick: [String: Any]?, problems: [String])] = [:]
        for result in results {
            let evidence = result["evidence"] as? [String: Any]
            let problems = (result["problems"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            picks[result["ip"] as? String ?? ""] = (evidence?["picked_by"] as? [String], evidence?["pick"] as? [String: Any], problems)
        }
        return picks
    }

    @Test("ranking on: the live edge is picked by its connect, the dead one ranked last and said to be no one's")
    func rankingPicksTheLiveEdge() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-ranked
            domains:
              ali:
                httpdns:
                  format: alibaba
                  url: "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"
                  sdk: {profile: alibaba-android, rank: {port: {{https}}}}
            scenarios:
              - {name: split, domains: ali, ips: all, request: {url: "http://split.lab.test:{{http}}/status/200"}, expect: {status: 200}}
            """, lab: lab)
        let report = try LabPlans.temporaryDirectory().appendingPathComponent("pick.json")
        let output = try await run([file, "-v", "--json", report.path])
        #expect(output.status == 1, "the dead edge's result errs: \(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("PASS  split [header-only 127.0.0.2] [PICK]"), "\(output.stdout)")
        #expect(output.stdout.contains("picked by: this machine (the only address that connected, in "), "\(output.stdout)")
        #expect(output.stdout.contains("127.0.0.9:\(lab.httpsPort) connection refused"), "the ranking's connects: \(output.stdout)")
        #expect(
            output.stdout.contains("diagnosis: no population's apps use this address (ali, alibaba-android): this machine picks 127.0.0.2"),
            "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.2"]?.pickedBy == ["this machine"])
        #expect(picks["127.0.0.9"]?.pickedBy == [], "an address no population picks: [] (null is a map without sdk:)")
        let connects = try #require(picks["127.0.0.2"]?.pick?["connects"] as? [[String: Any]])
        #expect(connects.map { $0["address"] as? String } == ["127.0.0.2", "127.0.0.9"])
        #expect((connects.first?["connect_ms"] as? Double).map { $0 >= 0 && $0 < 1000 } == true, "\(connects)")
        #expect(connects.last?["error"] as? String == "connection refused")
    }

    @Test("tencent hands out one address per family, ranking off; other results are no one's pick")
    func tencentPicksOnePerFamily() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-families
            domains:
              tencent:
                httpdns:
                  format: alibaba
                  url: "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"
                  sdk: {profile: tencent-android}
            scenarios:
              - {name: api, domains: tencent, ips: all, request: {url: "http://api.lab.test:{{http}}/status/200"}, expect: {status: 200}}
            """, lab: lab)
        let report = try LabPlans.temporaryDirectory().appendingPathComponent("pick.json")
        let output = try await run([file, "-v", "--json", report.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("picked by: this machine (first IPv4 in the answer; ranking off)"), "\(output.stdout)")
        #expect(output.stdout.contains("picked by: this machine (first IPv6 in the answer; ranking off)"), "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.2"]?.pickedBy == ["this machine"])
        #expect(picks["::1"]?.pickedBy == ["this machine"])
        #expect(picks["127.0.0.5"]?.pickedBy == [])
        #expect((picks["127.0.0.2"]?.pick?["sdk"] as? String) == "tencent-android")
    }

    @Test("a map that falls back to the system resolver picks among its addresses, unranked, and says so")
    func fallbackPicksAmongTheResolversAddresses() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-fallback
            domains:
              broken:
                httpdns:
                  format: alibaba
                  url: "http://127.0.0.9:{{http}}/httpdns/alibaba/100000/d?host={host}"
                  sdk: {profile: alibaba-ios, rank: {port: {{https}}}}
                  fallback: system
            scenarios:
              - name: api
                domains: broken
                ips: all
                resolver: "127.0.0.2:{{dns}}"
                request: {url: "http://api.lab.test:{{http}}/status/200"}
                expect: {status: 200}
            """, lab: lab)
        let report = try LabPlans.temporaryDirectory().appendingPathComponent("pick.json")
        let output = try await run([file, "-v", "--json", report.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(
            output.stdout.contains(
                "picked by: this machine (first in resolver 127.0.0.2:\(lab.dnsPort)'s answer; the SDK fell back, HTTPDNS gave no address)"),
            "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.2"]?.pickedBy == ["this machine"], "Alibaba hands out the first IPv4")
        #expect(picks["::1"]?.pickedBy == [])
        #expect((picks["127.0.0.2"]?.pick?["connects"] as? [Any])?.isEmpty == true, "a fallback's answer is never ranked")
    }

    @Test("a map without sdk: has no pick (picked_by null)")
    func noSDKNoPick() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-none
            domains:
              ali: {httpdns: {format: alibaba, url: "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"}}
            scenarios:
              - {name: api, domains: ali, request: {url: "http://api.lab.test:{{http}}/status/200"}, expect: {status: 200}}
            """, lab: lab)
        let report = try LabPlans.temporaryDirectory().appendingPathComponent("pick.json")
        let output = try await run([file, "-v", "--json", report.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(!output.stdout.contains("picked by"), "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.2"].map { $0.pickedBy == nil && $0.pick == nil } == true)
    }
}

extension PickCLITests {
    @Test("runner resolve names each answer's pick, in a PICK column and in JSON")
    func resolveNamesThePick() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-resolve
            domains:
              ali:
                httpdns:
                  format: alibaba
                  url: "http://127.0.0.2:{{http}}/httpdns/alibaba/100000/d?host={host}"
                  sdk: {profile: alibaba-ios, rank: {port: {{https}}}}
            scenarios:
              - {name: split, domains: ali, request: {url: "http://split.lab.test:{{http}}/status/200"}}
            """, lab: lab)
        let text = try await PackageExecutable.run("runner", ["resolve", file])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("ADDRESSES            PICK"), "\(text.stdout)")
        #expect(text.stdout.contains("127.0.0.2 127.0.0.9  127.0.0.2 (the only address that connected, in "), "\(text.stdout)")
        let json = try await PackageExecutable.run("runner", ["resolve", "--json", file])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let pick = try #require(rows.first?["pick"] as? [[String: String]])
        #expect(pick.map { $0["address"] } == ["127.0.0.2"])
        #expect(pick.first?["reason"]?.hasPrefix("the only address that connected") == true, "\(pick)")
    }
}

/// The issue's lab checks: `rank.lab.test`, which the lab's DNSPod replica answers each
/// population with its three rank edges in an order of its own (the dead edge first for
/// bj-unicom and gd-telecom): the fast edge connects at once on the rank port, the slow one in
/// about 1 s (its first SYN held back), the dead one refuses.
extension PickCLITests {
    static func populationsPlan(sdk: String) -> String {
        """
        version: 1
        name: pick-populations
        defaults: {ca: "{{ca}}", strategy: sni-resolve}
        clients:
          gd-mobile: {ip: 120.196.0.1, labels: {isp: china-mobile}}
          bj-unicom: {ip: 123.112.0.1, labels: {isp: china-unicom}}
          sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom}}
          gd-telecom: {ip: 113.96.0.1, labels: {isp: china-telecom}}
        domains:
          tencent:
            httpdns:
              format: dnspod
              url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}&ip={client}"
              clients: all
              sdk: \(sdk)
        scenarios:
          - {name: rank, domains: tencent, ips: all, request: {url: "https://rank.lab.test:{{https}}/echo"}, expect: {status: 200}}
        """
    }

    @Test("ranking on: every population picks the fastest live edge; the slow one ranks behind it, the dead one last")
    func everyPopulationPicksTheFastestLiveEdge() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write(Self.populationsPlan(sdk: "{profile: alibaba-android, rank: {port: {{rank}}}}"), lab: lab)
        let folder = try LabPlans.temporaryDirectory()
        let report = folder.appendingPathComponent("pick.json")
        let junit = folder.appendingPathComponent("pick.xml")
        let metrics = folder.appendingPathComponent("pick.prom")
        let output = try await run([file, "-v", "--json", report.path, "--junit", junit.path, "--metrics", metrics.path])
        #expect(output.status == 1, "the dead edge's result errs, no one's pick: \(output.stdout)\(output.stderr)")
        // Each population's pick in the series, 1 on the fast edge, passing; promtool reads them.
        let exposition = try String(contentsOf: metrics, encoding: .utf8)
        for client in ["gd-mobile", "bj-unicom", "sh-telecom", "gd-telecom"] {
            let labels = #"plan="pick-populations",map="tencent",host="rank.lab.test",client="\#(client)",ip="127.0.0.15""#
            #expect(exposition.contains("runner_app_pick{\(labels)} 1"), "\(client)\n\(exposition)")
            #expect(exposition.contains("runner_app_pick_success{\(labels)} 1"), "\(client)\n\(exposition)")
        }
        #expect(!exposition.contains(#"runner_app_pick{plan="pick-populations",map="tencent",host="rank.lab.test",client="gd-mobile",ip="127.0.0.17"}"#))
        let promtool = try await Exposition.promtool(exposition)
        #expect(promtool.status == 0, "\(promtool.output)")
        #expect(Exposition.problems(exposition) == [])
        #expect(output.stdout.contains("PASS  rank [sni-resolve 127.0.0.15] [PICK]"), "\(output.stdout)")
        #expect(!output.stdout.contains("127.0.0.16] [PICK]") && !output.stdout.contains("127.0.0.17] [PICK]"), "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.15"]?.pickedBy == ["gd-mobile", "bj-unicom", "sh-telecom", "gd-telecom"])
        #expect(picks["127.0.0.17"]?.pickedBy == [] && picks["127.0.0.16"]?.pickedBy == [])
        #expect(picks["127.0.0.17"]?.problems == [], "a failing address no one picks is no pick problem")
        let pickers = try #require(picks["127.0.0.15"]?.pick?["pickers"] as? [[String: String]])
        #expect(pickers.allSatisfy { $0["reason"]?.hasPrefix("fastest connect, ") == true }, "\(pickers)")
        // The ranking's connects: the fast edge at once, the slow one after its SYN's resend,
        // the dead one refused; one connect per edge for the four populations.
        let connects = try #require(picks["127.0.0.15"]?.pick?["connects"] as? [[String: Any]])
        let byAddress = Dictionary(uniqueKeysWithValues: connects.compactMap { connect in
            (connect["address"] as? String).map { ($0, connect) }
        })
        #expect(Set(byAddress.keys) == ["127.0.0.15", "127.0.0.16", "127.0.0.17"], "IPv4 only for alibaba-android: \(connects)")
        let fast = try #require(byAddress["127.0.0.15"]?["connect_ms"] as? Double)
        let slow = try #require(byAddress["127.0.0.16"]?["connect_ms"] as? Double)
        #expect(fast < 300 && slow >= 500 && slow < 4000, "fast \(fast) ms, slow \(slow) ms")
        #expect(byAddress["127.0.0.17"]?["error"] as? String == "connection refused")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<property name=\"sdk.ranking_connects\" value=\"3\"/>"), "one per distinct (address, port): \(xml)")
        #expect(xml.contains("<property name=\"domains.tencent.rank.lab.test as bj-unicom pick\" value=\"127.0.0.15 (fastest connect, "))
    }

    @Test("ranking off: the dead edge first in two populations' answers is their failing pick")
    func aDeadEdgeFirstInTheAnswerIsAFailingPick() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write(Self.populationsPlan(sdk: "{profile: alibaba-android}"), lab: lab)
        let folder = try LabPlans.temporaryDirectory()
        let report = folder.appendingPathComponent("pick.json")
        let junit = folder.appendingPathComponent("pick.xml")
        let output = try await run([file, "--json", report.path, "--junit", junit.path])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(
            output.stdout.contains(
                "The apps of bj-unicom, gd-telecom connect to 127.0.0.17 (first in the answer; ranking off) and it fails"),
            "\(output.stdout)")
        #expect(output.stdout.contains("picks 127.0.0.17 for rank.lab.test (first in the answer; ranking off): FAILED"), "\(output.stdout)")
        #expect(output.stdout.contains("picks 127.0.0.16 for rank.lab.test (first in the answer; ranking off): passed"), "gd-mobile: \(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.17"]?.pickedBy == ["bj-unicom", "gd-telecom"])
        #expect(picks["127.0.0.17"]?.problems.first == "pick")
        #expect(picks["127.0.0.16"]?.pickedBy == ["gd-mobile"] && picks["127.0.0.15"]?.pickedBy == ["sh-telecom"])
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<failure type=\"pick\""), "\(xml)")
        #expect(!xml.contains("sdk.ranking_connects"), "no ranking, no connects")
    }

    @Test("a service that answers nothing: tencent falls back to the system resolver and picks one address per family there")
    func anEmptyServiceFallsBackAndPicksPerFamily() async throws {
        let lab = try await SharedLab.get()
        let file = try LabPlans.write("""
            version: 1
            name: pick-empty
            domains:
              tencent:
                httpdns:
                  format: dnspod
                  url: "http://127.0.0.2:{{http}}/httpdns/dnspod/d?dn={host}"
                  sdk: {profile: tencent-android, rank: {port: {{rank}}}}
            scenarios:
              - name: fallback
                domains: tencent
                ips: all
                resolver: "127.0.0.2:{{dns}}"
                request: {url: "http://fallback.lab.test:{{http}}/status/200"}
                expect: {status: 200}
            """, lab: lab)
        let report = try LabPlans.temporaryDirectory().appendingPathComponent("pick.json")
        let output = try await run([file, "-v", "--json", report.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("[FALLBACK]"), "\(output.stdout)")
        let resolver = "resolver 127.0.0.2:\(lab.dnsPort)"
        #expect(
            output.stdout.contains("picked by: this machine (first IPv4 in \(resolver)'s answer; the SDK fell back, HTTPDNS gave no address)"),
            "\(output.stdout)")
        #expect(output.stdout.contains("picked by: this machine (first IPv6 in \(resolver)'s answer; the SDK fell back"), "\(output.stdout)")
        let picks = try picks(report)
        #expect(picks["127.0.0.2"]?.pickedBy == ["this machine"] && picks["::1"]?.pickedBy == ["this machine"])
        #expect(picks["127.0.0.5"]?.pickedBy == [])
        #expect((picks["127.0.0.2"]?.pick?["connects"] as? [Any])?.isEmpty == true, "a fallback's answer is not ranked")
    }
}
