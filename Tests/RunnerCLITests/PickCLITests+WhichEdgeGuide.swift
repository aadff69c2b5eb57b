import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// docs/guides/which-edge.md's plan, run against the lab as the guide shows it: its lab ports
/// passed as the plan's vars, its output as the guide quotes it. In `PickCLITests`' suite, whose
/// tests run one at a time: the lab's slow rank edge holds back one SYN at a time, and a second
/// ranking connect in its window would get in at once.
extension PickCLITests {
    /// The guide's plan, written to a fresh folder; the `--var`s that point it at `lab`.
    static func whichEdgeGuidePlan(_ lab: Lab) throws -> (path: String, vars: [String]) {
        let guide = try String(contentsOf: Repository.root.appendingPathComponent("docs/guides/which-edge.md"), encoding: .utf8)
        let marker = "<!-- run by Tests/RunnerCLITests/PickCLITests+WhichEdgeGuide.swift -->\n```yaml\n"
        let start = try #require(guide.range(of: marker), "the guide's plan")
        let end = try #require(guide.range(of: "```", range: start.upperBound..<guide.endIndex))
        let path = try LabPlans.temporaryDirectory().appendingPathComponent("which-edge.yaml").path
        try String(guide[start.upperBound..<end.lowerBound]).write(toFile: path, atomically: true, encoding: .utf8)
        let vars = [
            "http_port=\(lab.httpPort)", "https_port=\(lab.httpsPort)", "rank_port=\(lab.rankPort)", "ca=\(lab.caFile)",
        ].flatMap { ["--var", $0] }
        return (path, vars)
    }

    @Test("docs/guides/which-edge.md: the plan shows what the guide says")
    func theWhichEdgeGuidesPlanShowsWhatItSays() async throws {
        let lab = try await SharedLab.get()
        let (plan, vars) = try Self.whichEdgeGuidePlan(lab)
        let resolve = try await PackageExecutable.run("runner", ["resolve", plan] + vars)
        #expect(resolve.status == 0, "\(resolve.stdout)\(resolve.stderr)")
        let rows = resolve.stdout.split(separator: "\n").map(String.init)
        let ranked = rows.filter { $0.hasPrefix("  ranked ") }
        #expect(ranked.count == 4 && ranked.allSatisfy { $0.contains("127.0.0.15 (fastest connect, ") }, "\(resolve.stdout)")
        #expect(
            rows.contains { $0.hasPrefix("  unranked") && $0.contains("bj-unicom") && $0.contains("127.0.0.17 (first in the answer; ranking off)") },
            "\(resolve.stdout)")

        let run = try await PackageExecutable.run("runner", [plan, "--color", "never"] + vars)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        for line in [
            "The apps of bj-unicom, gd-telecom connect to 127.0.0.17 (first in the answer; ranking off) and it fails",
            "PASS  ranked [sni-resolve 127.0.0.15] [PICK]",
            "diagnosis: no population's apps use this address (ranked, alibaba-android): gd-mobile, bj-unicom, sh-telecom, gd-telecom pick 127.0.0.15",
            "picks 127.0.0.17 for rank.lab.test (first in the answer; ranking off): FAILED (request)",
        ] {
            #expect(run.stdout.contains(line), "\(line)\n\(run.stdout)")
        }
        #expect(run.stdout.contains("PASS  ranked [sni-resolve 127.0.0.16]  200"), "the slow edge is no one's pick when ranked: \(run.stdout)")
    }
}
