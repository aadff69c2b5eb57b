import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// The SDK's pick (`sdk:`) against the lab: its Alibaba replica answers `split.lab.test` with a
/// live edge (127.0.0.2) and a dead one (127.0.0.9, nothing listens), and `api.lab.test` with
/// two IPv4 edges and `::1`. Each test reads the console and the JSON report a user reads.
@Suite("The SDK's pick", .timeLimit(.minutes(3)))
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
