import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// A resolver check's evidence in every report: the console, JUnit `system-out`, JSON, the
/// metrics and the HTML report, from one run against the lab's lying and honest resolvers.
@Suite("resolver checks in every report", .timeLimit(.minutes(3)))
struct ResolverCheckCLITests {
    @Test func everyReportShowsTheResolverAndTheForeignAddress() async throws {
        let lab = try await SharedLab.get()
        let plan = try LabPlans.write("""
            version: 1
            name: dns
            defaults:
              ca: "{{ca}}"
              strategy: system
              ip_version: 4
            domains:
              shipped: {static: {api.lab.test: [127.0.0.2, 127.0.0.5]}}
            scenarios:
              - name: lying
                resolver: "127.0.0.8:{{dns}}"
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
              - name: honest
                resolver: "127.0.0.2:{{dns}}"
                request: {url: "https://api.lab.test:{{https}}/status/200"}
                expect: {status: 200, dns: {within: shipped}}
            """, lab: lab)
        let directory = try LabPlans.temporaryDirectory()
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let output = try await PackageExecutable.run(
            "runner",
            [plan, "--junit", path("junit.xml"), "--json", path("report.json"), "--metrics", path("m.prom"),
             "--html", path("report.html"), "--color", "never", "--verbose"])
        let lying = "127.0.0.8:\(lab.dnsPort)"
        let honest = "127.0.0.2:\(lab.dnsPort)"
        let message = "resolver \(lying) returned 127.0.0.7 for api.lab.test, which 'shipped' does not list"

        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("FAIL  lying [system 127.0.0.2]"), "\(output.stdout)")
        #expect(output.stdout.contains(message), "\(output.stdout)")
        #expect(output.stdout.contains("dns: api.lab.test from resolver \(lying), NOT within 'shipped'\n"), "\(output.stdout)")
        #expect(output.stdout.contains("  A: NOERROR, 127.0.0.2 127.0.0.7, ttl \(LabResolver.ttl), "), "\(output.stdout)")
        #expect(output.stdout.contains("  foreign: 127.0.0.7\n"), "\(output.stdout)")
        #expect(output.stdout.contains("PASS  honest [system 127.0.0.2]"), "\(output.stdout)")

        let xml = try String(contentsOfFile: path("junit.xml"), encoding: .utf8)
        #expect(xml.contains("dns: api.lab.test from resolver \(lying), NOT within &apos;shipped&apos;")
            || xml.contains("dns: api.lab.test from resolver \(lying), NOT within 'shipped'"), "\(xml)")
        #expect(xml.contains("  foreign: 127.0.0.7\n"), "\(xml)")
        let validation = try await PackageExecutable.runTool(
            "/usr/bin/xmllint", ["--noout", "--schema", Repository.junitSchema.path, path("junit.xml")])
        #expect(validation.status == 0, "\(validation.stderr)")

        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("report.json")))) as? [String: Any])
        let results = try #require(((json["suites"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let lookups = results.compactMap { ($0["evidence"] as? [String: Any])?["dns"] as? [[String: Any]] }
        let dns = try #require(lookups.first)
        #expect(dns.first?["resolver"] as? String == lying)
        #expect(dns.first?["foreign"] as? [String] == ["127.0.0.7"])
        #expect(dns.first?["within"] as? [String] == ["shipped"])
        let question = try #require((dns.first?["questions"] as? [[String: Any]])?.first)
        #expect(question["addresses"] as? [String] == LabResolver.lie)
        #expect(question["rcode"] as? String == "NOERROR")
        #expect(question["ttl"] as? Int == LabResolver.ttl)

        let metrics = try String(contentsOfFile: path("m.prom"), encoding: .utf8)
        let promtool = try await Exposition.promtool(metrics)
        #expect(promtool.status == 0, "\(promtool.output)")
        let samples = Exposition.samples(metrics)
        func value(_ name: String, _ wanted: [String: String]) -> Double? {
            let sample = samples.first { sample in
                sample.name == name && wanted.allSatisfy { label in sample.labels.contains { $0 == (label.key, label.value) } }
            }
            return sample.flatMap { Double($0.value) }
        }
        #expect(value("runner_dns_foreign_addresses", ["scenario": "lying", "resolver": lying, "host": "api.lab.test", "strategy": "system", "plan": "dns"]) == 1, "\(metrics)")
        #expect(value("runner_dns_foreign_addresses", ["scenario": "honest", "resolver": honest]) == 0, "\(metrics)")
        let duration = try #require(value("runner_dns_lookup_duration_seconds", ["resolver": lying, "host": "api.lab.test"]))
        #expect(duration > 0 && duration < 5)

        let page = try String(contentsOfFile: path("report.html"), encoding: .utf8)
        #expect(page.contains("<mark class=\"foreign\" title=\"no map of expect.dns.within lists it\">127.0.0.7</mark>"), "\(page)")
        #expect(page.contains("from resolver \(lying), <strong class=\"foreign\">not within</strong> &#39;shipped&#39;")
            || page.contains("from resolver \(lying), <strong class=\"foreign\">not within</strong> 'shipped'"), "\(page)")
    }
}
