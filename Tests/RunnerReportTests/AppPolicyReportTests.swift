import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults

/// An app's rules (`app:`) in the reports: the evidence line, the JSON record `runner merge`
/// reads back to the same bytes, and a refused edge as JUnit's `app-policy` failure.
@Suite("App policies in the reports", .timeLimit(.minutes(1)))
struct AppPolicyReportTests {
    static func run() -> RecordedRun {
        var run = Fixture.run()
        run.suites[0].results[0].evidence.appPolicies = [Fixture.appPolicy]
        run.suites[0].results[0].evidence.appWarnings = [Fixture.appWarning]
        // The failed result: an edge the app's pins refuse.
        run.suites[0].results[1].outcome = .failed([Problem(
            subject: "app shop-android (android) pins for api.example.com", expected: "a chain certificate matching one of sha256/AAA=",
            actual: "chain sha256/BBB= (CN=api.example.com): the app refuses this edge", kind: .appPolicy)])
        return run
    }

    @Test func theEvidenceSaysTheRuleWhereItIsWrittenAndTheWarning() throws {
        let junit = try RenderedReport.junit(Self.run(), redactor: Fixture.redactor)
        #expect(junit.contains(
            "app policy: shop-android (android) for api.example.com: app/network_security_config.xml:4; cleartext no; anchors system; "
                + "pins 1 until 2027-01-01 enforced: matched AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), "\(junit)")
        #expect(junit.contains("app warnings: no-backup-pin: the android pins for api.example.com match only the leaf served now"))
        #expect(junit.contains(#"<failure type="app-policy" message="app shop-android (android) pins for api.example.com: chain sha256/BBB="#),
            "\(junit)")
    }

    /// The curl script says in comments what curl does not check and the app would.
    @Test func theCurlScriptCommentsTheAppsRules() throws {
        let script = try RenderedReport.curl(Self.run(), redactor: Fixture.redactor)
        #expect(script.contains("\n# app policy: shop-android (android) for api.example.com: app/network_security_config.xml:4;"), "\(script)")
        #expect(script.contains("\n# app warning: no-backup-pin: the android pins for api.example.com match only the leaf"))
    }

    @Test func theJSONRecordReadsBackToTheSameBytes() throws {
        let data = try RenderedReport.json(Self.run(), redactor: Fixture.redactor)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let result = try #require(((object["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let evidence = try #require(result["evidence"] as? [String: Any])
        let policy = try #require((evidence["app_policy"] as? [[String: Any]])?.first)
        #expect(policy["keyed_on"] as? String == "name" && policy["pins_enforced"] as? Bool == true && policy["why_not"] is NSNull)
        #expect((policy["source"] as? [String: Any])?["line"] as? Int == 4)
        #expect((evidence["app_warnings"] as? [[String: Any]])?.first?["kind"] as? String == "no-backup-pin")
        let merged = try ReportMerge.merge([ReportInput(path: "run.json", bytes: data)])
        #expect(try ReportMergeTests.rewritten(merged, json: true) == data)
    }
}
