import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

@Suite struct JSONReportTests {
    let data: Data

    init() throws {
        data = try RenderedReport.json(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor)
    }

    private func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func results() throws -> [[String: Any]] {
        let suites = try #require(try object()["suites"] as? [[String: Any]])
        return suites.flatMap { ($0["results"] as? [[String: Any]]) ?? [] }
    }

    @Test func topLevelHasRunnerSummaryAndSuites() throws {
        let top = try object()
        #expect(Set(top.keys) == ["runner", "summary", "suites"])
        let runner = try #require(top["runner"] as? [String: Any])
        #expect(runner["name"] as? String == "runner")
        #expect(runner["format_version"] as? Int == 1)
        #expect(runner["started_at"] as? String == "2024-05-01T10:00:00Z")
        #expect(runner["duration_ms"] as? Double == 2500)
        #expect(runner["interrupted"] as? Bool == true)
        #expect(runner["interrupted_by"] as? String == "SIGINT")
        let summary = try #require(top["summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["passed", "failed", "errors", "skipped", "flaky", "connections_opened", "duration_ms"])
        #expect(summary["flaky"] as? Int == 0)
        #expect(summary["connections_opened"] as? Int == 0)
        #expect(summary["passed"] as? Int == 2)
        #expect(summary["failed"] as? Int == 2)
        #expect(summary["errors"] as? Int == 1)
        #expect(summary["skipped"] as? Int == 1)
    }

    @Test func suitesCarryTheirPlanAndProperties() throws {
        let suites = try #require(try object()["suites"] as? [[String: Any]])
        #expect(suites.count == 2)
        let prod = suites[0]
        #expect(Set(prod.keys) == ["name", "file", "timestamp", "hostname", "duration_ms", "properties", "results"])
        #expect(prod["name"] as? String == "prod.eu")
        #expect(prod["file"] as? String == "plans/prod.eu.yaml")
        #expect(prod["timestamp"] as? String == "2024-05-01T10:00:00Z")
        #expect(prod["hostname"] as? String == "ci-01")
        #expect(prod["duration_ms"] as? Double == 1250)
        let properties = try #require(prod["properties"] as? [String: String])
        #expect(properties["runner.version"] == "1.0.0")
        #expect(properties["domains.tencent"] == "http://119.29.29.29/d?dn=api.example.com&key=***")
        #expect((prod["results"] as? [Any])?.count == 3)
    }

    @Test func everyResultHasEveryDocumentedField() throws {
        let expected: Set<String> = [
            "name", "plan", "scenario", "scenario_index", "strategy", "ip", "tags", "outcome", "problems", "error",
            "skipped_reason", "insecure", "flaky", "earlier_attempts", "duration_ms", "evidence", "after",
        ]
        let all = try results()
        #expect(all.count == 6)
        for result in all {
            #expect(Set(result.keys) == expected)
            let evidence = try #require(result["evidence"] as? [String: Any])
            #expect(Set(evidence.keys) == [
                "ip_source", "notes", "hops", "captured", "clients", "dns", "dns_not_checked", "retained", "app_policy", "app_warnings",
                "pick", "picked_by", "grpc",
            ])
            // No map of the fixture names an SDK; no scenario makes a gRPC call.
            #expect(evidence["pick"] is NSNull && evidence["picked_by"] is NSNull && evidence["grpc"] is NSNull)
        }
        #expect(all.map { $0["outcome"] as? String } == ["passed", "failed", "error", "skipped", "passed", "failed"])
    }

    @Test func outcomesCarryTheirDetails() throws {
        let all = try results()
        let passed = all[0]
        #expect(passed["name"] as? String == "login over SNI [sni-resolve 203.0.113.10]")
        #expect(passed["plan"] as? [String: String] == ["name": "prod.eu", "file": "plans/prod.eu.yaml"])
        #expect(passed["ip"] as? String == "203.0.113.10")
        #expect(passed["tags"] as? [String] == ["login", "critical"])
        #expect(passed["error"] is NSNull)
        #expect(passed["skipped_reason"] is NSNull)
        #expect((passed["problems"] as? [Any])?.isEmpty == true)
        #expect(passed["duration_ms"] as? Double == 123)

        let problems = try #require(all[1]["problems"] as? [[String: String]])
        #expect(problems == [
            ["subject": "status", "expected": "200", "actual": "404", "kind": "expectation"],
            ["subject": "header Content-Type", "expected": "contains \"json\"", "actual": "text/html", "kind": "expectation"],
            ["subject": "header X-Echo-Authorization", "expected": "absent", "actual": "Bearer ***", "kind": "expectation"],
        ])

        let error = try #require(all[2]["error"] as? [String: String])
        #expect(error["type"] == "tls")
        #expect(error["message"] == Fixture.errorMessage.replacingOccurrences(of: Fixture.secret, with: "***"))
        #expect(error["diagnosis"] == Fixture.diagnosis)

        #expect(all[3]["skipped_reason"] as? String == "not run: interrupted by SIGINT")
        #expect(all[3]["ip"] is NSNull)
        #expect(all[4]["insecure"] as? Bool == true)
        #expect(all[0]["insecure"] as? Bool == false)
    }

    @Test func hopsHaveMillisecondTimingsAndTheCertificate() throws {
        let evidence = try #require(try results()[0]["evidence"] as? [String: Any])
        #expect(evidence["ip_source"] as? String == "static map 'builtin'")
        let hop = try #require((evidence["hops"] as? [[String: Any]])?.first)
        #expect(Set(hop.keys) == [
            "method", "original_url", "url_sent", "host_header", "sni", "pinned_ip", "connected_ip",
            "connected_port", "content_length", "http_version", "status", "certificate", "timings", "new_connection",
            "body_length", "body_sha256", "curl", "tls",
        ])
        #expect(hop["content_length"] as? Int == 27)
        let tls = try #require(hop["tls"] as? [String: Any])
        #expect(tls["version"] as? String == "1.3" && tls["chain_verified"] as? Bool == true)
        let leaf = try #require((tls["chain"] as? [[String: Any]])?.first)
        #expect(leaf["pin"] as? String == "sha256/" + Data(repeating: 0xA1, count: 32).base64EncodedString())
        #expect(leaf["key_type"] as? String == "EC" && leaf["key_bits"] as? Int == 256 && leaf["signature"] as? String == "ecdsa-with-SHA256")
        #expect(hop["curl"] is NSNull, "a result that passed has no curl line")
        #expect(hop["sni"] as? String == "api.example.com")
        #expect(hop["connected_port"] as? Int == 443)
        #expect(hop["status"] as? Int == 200)
        #expect(hop["new_connection"] as? Bool == true)
        let timings = try #require(hop["timings"] as? [String: Any])
        #expect(timings["resolve_ms"] as? Double == 0.1)
        #expect(timings["connect_ms"] as? Double == 1.2)
        #expect(timings["tls_ms"] as? Double == 5.4)
        #expect(timings["first_byte_ms"] as? Double == 80.1)
        #expect(timings["total_ms"] as? Double == 82.3)
        let certificate = try #require(hop["certificate"] as? [String: Any])
        #expect(certificate["not_after"] as? String == "2025-06-30T23:59:59Z")
        #expect(certificate["subject_alt_names"] as? [String] == ["api.example.com", "www.example.com"])

        // Absent values are explicit nulls, not missing keys.
        let errorHop = try #require(((try results()[2]["evidence"] as? [String: Any])?["hops"] as? [[String: Any]])?.first)
        #expect(errorHop["status"] is NSNull)
        #expect(errorHop["certificate"] is NSNull)
        #expect((errorHop["timings"] as? [String: Any])?["tls_ms"] is NSNull)
    }

    /// Keys sorted; the envelope indented, each result on one line without whitespace.
    @Test func sortedIndentedAndOneLinePerResult() throws {
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"runner\" : {"))
        let summary = try #require(text.range(of: "\"summary\""))
        let keys = ["\"duration_ms\"", "\"errors\"", "\"failed\"", "\"passed\"", "\"skipped\""]
        let positions = try keys.map { try #require(text.range(of: $0, range: summary.upperBound..<text.endIndex)).lowerBound }
        #expect(positions == positions.sorted())
        #expect(text.contains("\"url_sent\":\"https://api.example.com/v1/login\""))
        #expect(!text.contains("\"url_sent\" : "))
    }

    @Test func decodesBackToTheSameDocument() throws {
        let run = Fixture.run(interruptedBy: 2)
        #expect(try RenderedReport.json(try run.readBack(data), redactor: Fixture.redactor) == data)
    }

    @Test func hostileStringsSurviveExactly() throws {
        let hostile = try results()[5]
        let expected = Fixture.hostile
        #expect(hostile["scenario"] as? String == expected)
        #expect((hostile["evidence"] as? [String: Any])?["notes"] as? [String] == [expected, "password ***"])
    }

    @Test func noSecretAppears() {
        let text = String(decoding: data, as: UTF8.self)
        for secret in Fixture.forbidden + ["p&ss<w>\\\"rd"] {
            #expect(!text.contains(secret), "found \(secret)")
        }
        #expect(text.contains("Bearer ***"))
    }
}

@Suite struct JSONReportDocumentationTests {
    /// docs/json-report.md.
    private static func documentation() throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("docs/json-report.md"), encoding: .utf8)
    }

    /// Every key the report writes, at any depth (property names are data, not keys).
    private static func keys(of value: Any, into keys: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (key, child) in object {
                keys.insert(key)
                if key != "properties" { Self.keys(of: child, into: &keys) }
            }
        } else if let array = value as? [Any] {
            for child in array { Self.keys(of: child, into: &keys) }
        }
    }

    @Test func theDocumentedKeysAreExactlyTheKeysWritten() throws {
        let doc = try Self.documentation()
        // First column of each table row: | `key` | …
        let documented = Set(doc.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        })
        // With every optional part: a state file that did not record.
        var run = Fixture.run(interruptedBy: 2)
        run.stateRecording = Fixture.stateNotRecorded
        run.suites[0].results[0].evidence.appPolicies = [Fixture.appPolicy]
        run.suites[0].results[0].evidence.appWarnings = [Fixture.appWarning]
        run.suites[0].results[0].evidence.pick = Fixture.pick
        run.suites[0].results[0].evidence.grpc = GRPCAnswer(status: GRPCStatusCode(rawValue: 5), message: "unknown", serving: .serving)
        let data = try RenderedReport.json(run, redactor: Fixture.redactor)
        var written = Set<String>()
        Self.keys(of: try JSONSerialization.jsonObject(with: data), into: &written)
        #expect(written.subtracting(documented).isEmpty, "undocumented: \(written.subtracting(documented).sorted())")
        #expect(documented.subtracting(written).isEmpty, "documented but not written: \(documented.subtracting(written).sorted())")
    }
}
