import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// The SDK's pick (`sdk:`) in the reports: the console's `[PICK]` and the picks in its summary,
/// the HTML tag and matrix mark, the JUnit failure type and evidence, the JSON round trip.
@Suite struct PickReportTests {
    static let gdMobile = ClientIdentity(name: "gd-mobile", labels: [ClientIdentity.Label(name: "isp", value: "china-mobile")])
    static let shTelecom = ClientIdentity(name: "sh-telecom", labels: [ClientIdentity.Label(name: "isp", value: "china-telecom")])
    static let ranked = "fastest connect, 0.3 ms"
    static let first = "first in the answer; ranking off"

    let plain = ConsoleFormatter(color: false, verbosity: .normal, redactor: Fixture.redactor)

    /// A result of scenario `api-up` on `ip`, its map (`ali`, `alibaba-android`) asked as
    /// `clients`, the address picked by `pickers`; failing with `status` when `failing`, its
    /// pick's problem first.
    static func result(
        _ ip: String, clients: [ClientIdentity], pickers: [PickEvidence.Picker], elsewhere: [PickEvidence.Elsewhere] = [],
        failing: Bool = false
    ) -> ScenarioResult {
        var evidence = Evidence(strategy: .sniResolve, ipSource: "httpdns 'ali' (alibaba)", insecure: false)
        evidence.clients = clients
        let pick = PickEvidence(map: "ali", host: "api.lab.test", sdk: "alibaba-android", pickers: pickers, elsewhere: elsewhere)
        evidence.pick = pick
        let status = Problem(subject: "status", expected: "200", actual: "503")
        let outcome: Outcome =
            failing ? .failed((pickers.isEmpty ? [] : Problem.failingPick(pick, address: ip)) + [status]) : .passed
        return ScenarioResult(
            scenario: "api-up", strategy: .sniResolve, ip: ip, tags: [], outcome: outcome, evidence: evidence,
            duration: .seconds(0.012))
    }

    /// The console's summary of `results` as one scenario's (a slot each), handed over in reverse.
    static func summary(_ results: [ScenarioResult], color: Bool = false) -> String {
        let formatter = ConsoleFormatter(color: color, verbosity: .normal, redactor: Fixture.redactor)
        let console = ConsoleReport(formatter: formatter, plans: [PlanIdentity(name: "lab", file: "lab.yaml")]) { _ in }
        for (slot, result) in results.enumerated().reversed() {
            console.finished(result, at: ResultPosition(suite: 0, scenario: 0, slot: slot))
        }
        return console.summary(for: run(results).result)
    }

    static func run(_ results: [ScenarioResult]) -> RecordedRun {
        RecordedRun(
            suites: [RecordedSuite(
                name: "lab", file: "lab.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                results: results)],
            startedAt: Fixture.start, duration: .seconds(1))
    }

    /// gd-mobile's apps use 127.0.0.2, which passes; sh-telecom's got 127.0.0.2 too but use
    /// 127.0.0.9, which fails.
    static let twoPopulations = [
        result(
            "127.0.0.2", clients: [gdMobile, shTelecom], pickers: [.init(client: "gd-mobile", reason: first)],
            elsewhere: [.init(client: "sh-telecom", addresses: ["127.0.0.9"])]),
        result("127.0.0.9", clients: [shTelecom], pickers: [.init(client: "sh-telecom", reason: first)], failing: true),
    ]

    /// A map asked as this machine, ranked: 127.0.0.2 is the pick, 127.0.0.9 nobody's.
    static let thisMachine = [
        result("127.0.0.2", clients: [], pickers: [.init(client: PickEvidence.thisMachine, reason: ranked)]),
        result("127.0.0.9", clients: [], pickers: [], elsewhere: [.init(client: PickEvidence.thisMachine, addresses: ["127.0.0.2"])]),
    ]

    // MARK: Console

    @Test func aPickedAddressIsMarkedOnItsLine() throws {
        #expect(plain.line(for: Self.thisMachine[0]) == "PASS  api-up [sni-resolve 127.0.0.2] [PICK]  12 ms")
        // An address no population picks has a pick, but no mark.
        #expect(plain.line(for: Self.thisMachine[1]) == "PASS  api-up [sni-resolve 127.0.0.9]  12 ms")
        #expect(plain.line(for: Self.twoPopulations[1]) == """
            FAIL  api-up [sni-resolve 127.0.0.9] [PICK]  12 ms — sh-telecom's apps connect to 127.0.0.9 \
            (first in the answer; ranking off) and it fails (+1 more)
            """)
        var retained = Self.thisMachine[0]
        retained.evidence.retained = RetainedEvidence(
            map: "ali", client: nil, firstReturned: Fixture.start, lastReturned: Fixture.start, age: .seconds(60), window: .seconds(3600))
        #expect(plain.line(for: retained) == "PASS  api-up [sni-resolve 127.0.0.2] [RETAINED] [PICK]  12 ms")
        let coloured = ConsoleFormatter(color: true, verbosity: .normal, redactor: Fixture.redactor)
        #expect(try #require(coloured.line(for: Self.thisMachine[0])).contains(" \u{1B}[36m[PICK]\u{1B}[0m"))
    }

    /// Under each population of the Clients summary, the address its apps use and how it did;
    /// the group line names the failure behind the pick's problem.
    @Test func theClientsSummaryNamesEachPopulationsPick() {
        #expect(Self.summary(Self.twoPopulations) == """
            Not passing:
              FAIL  lab: api-up [sni-resolve] 1/2 IPs passed; failing: 127.0.0.9 status
            Clients:
              lab: api-up
                gd-mobile: 1/1 edges pass
                  picks 127.0.0.2 for api.lab.test (first in the answer; ranking off): passed
                sh-telecom: 1/2 edges pass; failing: 127.0.0.9 status
                  picks 127.0.0.9 for api.lab.test (first in the answer; ranking off): FAILED (status)
            Ran 2 results from 1 plan in 1.00 s
            1 passed, 1 failed, 0 errors
            """)
        #expect(Self.summary(Self.twoPopulations, color: true).contains(
            "\u{1B}[31m      picks 127.0.0.9 for api.lab.test (first in the answer; ranking off): FAILED (status)\u{1B}[0m"))
    }

    /// A map asked as this machine has no Clients block: its pick has a block of its own.
    @Test func thisMachinesPickHasASummaryBlock() {
        #expect(Self.summary(Self.thisMachine) == """
            Picks:
              lab: api-up
                this machine picks 127.0.0.2 for api.lab.test (fastest connect, 0.3 ms): passed
            Ran 2 results from 1 plan in 1.00 s
            2 passed, 0 failed, 0 errors
            """)
        var failing = Self.thisMachine
        failing[0] = Self.result(
            "127.0.0.2", clients: [], pickers: [.init(client: PickEvidence.thisMachine, reason: Self.ranked)], failing: true)
        let summary = Self.summary(failing)
        #expect(summary.contains("""
            Picks:
              lab: api-up
                this machine picks 127.0.0.2 for api.lab.test (fastest connect, 0.3 ms): FAILED (status)
            """))
        #expect(summary.contains("FAIL  lab: api-up [sni-resolve] 1/2 IPs passed; failing: 127.0.0.2 status\n"))
    }

    /// A plan without `sdk:` says nothing of picks.
    @Test func withoutAnSDKTheSummaryIsUnchanged() {
        var results = Self.twoPopulations + Self.thisMachine
        for index in results.indices { results[index].evidence.pick = nil }
        let summary = Self.summary(results)
        #expect(!summary.contains("pick") && !summary.contains("Picks"))
        #expect(results.allSatisfy { plain.line(for: $0)?.contains("[PICK]") == false })
    }

    // MARK: HTML

    @Test func theHTMLTagsThePickAndMarksItInTheMatrices() throws {
        let clients = try RenderedReport.html(Self.run(Self.twoPopulations), redactor: Fixture.redactor, asOneScenario: true)
        #expect(clients.contains(
            #"<span class="tag-pick" title="picked by sh-telecom (first in the answer; ranking off)">PICK</span>"#))
        #expect(clients.components(separatedBy: "class=\"tag-pick\"").count - 1 == 3, "two results and the legend")
        let table = try #require(try HTMLReportTests.captures(#"(<table class="matrix clients">[\s\S]*?</table>)"#, in: clients).first)
        #expect(table.contains("""
            <tr><th scope="row">gd-mobile (isp=china-mobile)</th><td><a class="cell passed pick" href="#r0-0-0" \
            data-result="r0-0-0" data-status="passed" title="passed: sni-resolve 127.0.0.2; picked: first in the answer; \
            ranking off">&#9733; PASS</a></td><td class="none" title="not sent there"></td></tr>
            """), "\(table)")
        // sh-telecom got 127.0.0.2 too, but its apps use 127.0.0.9: only that cell is marked.
        #expect(table.contains("""
            <tr><th scope="row">sh-telecom (isp=china-telecom)</th><td><a class="cell passed" href="#r0-0-0" \
            data-result="r0-0-0" data-status="passed" title="passed: sni-resolve 127.0.0.2">PASS</a></td>\
            <td><a class="cell failed pick" href="#r0-0-1" data-result="r0-0-1" data-status="failed" \
            title="failed: sni-resolve 127.0.0.9; picked: first in the answer; ranking off">&#9733; FAIL</a></td></tr>
            """), "\(table)")
        let matrix = try #require(try HTMLReportTests.captures(#"(<table class="matrix">[\s\S]*?</table>)"#, in: clients).first)
        #expect(matrix.contains("""
            <tr><th scope="row" class="pick" title="picked by gd-mobile (isp=china-mobile): first in the answer; ranking off">\
            127.0.0.2 <span class="pick-mark">&#9733;</span></th>
            """), "\(matrix)")

        // This machine's pick: the strategy × IP matrix marks its row, no clients matrix.
        let machine = try RenderedReport.html(Self.run(Self.thisMachine), redactor: Fixture.redactor, asOneScenario: true)
        #expect(!machine.contains("matrix clients"))
        #expect(try HTMLReportTests.captures(#"<th scope="row"([^>]*)>"#, in: machine) == [
            #" class="pick" title="picked by this machine: fastest connect, 0.3 ms""#, "",
        ])
        #expect(machine.components(separatedBy: "<span class=\"tag-pick\"").count - 1 == 1)
        // Without a pick the page has no mark, and no legend for it.
        let none = try RenderedReport.html(Fixture.run(), redactor: Fixture.redactor)
        #expect(!none.contains("&#9733;") && !none.contains("class=\"tag-pick") && !none.contains("class=\"pick"))
    }

    /// A picker's name and reason come from the plan and the SDK: escaped in the attribute.
    @Test func thePickTitleIsEscapedAndRedacted() throws {
        var hostile = Self.thisMachine[0]
        hostile.evidence.pick?.pickers = [.init(client: "a\"><script>", reason: "x & \(Fixture.secret)")]
        let page = try RenderedReport.html(Self.run([hostile]), redactor: Fixture.redactor)
        #expect(page.contains(#"title="picked by a&quot;&gt;&lt;script&gt; (x &amp; ***)">PICK</span>"#))
        #expect(!page.contains(Fixture.secret) && !page.contains("<script>"))
    }

    @Test func aMatrixCellRecordKeepsItsPicks() {
        let position = ResultPosition(suite: 0, scenario: 1, slot: 2)
        let cell = HTMLMatrixCell(
            status: .failed, flaky: false, scenario: "s", strategy: "sni-resolve", ip: "127.0.0.9", position: position,
            clients: ["gd-mobile (isp=cm)", "sh-telecom"], picks: [.init(client: "sh-telecom", reason: Self.first)])
        var bytes = ByteBuffer()
        cell.encode(into: &bytes)
        #expect(bytes.withUnsafeBytes { HTMLMatrixCell(decoding: UnsafeRawBufferPointer($0), at: position) } == cell)
        #expect(bytes.array.dropLast().withUnsafeBytes { HTMLMatrixCell(decoding: $0, at: position) } == nil)
    }

    // MARK: JUnit

    @Test func aFailingPickIsTheFailuresTypeAndThePickIsInSystemOut() throws {
        let xml = try RenderedReport.junit(Self.run(Self.twoPopulations + Self.thisMachine), redactor: Fixture.redactor)
        let check = try SchemaCheck.validate(xml)
        #expect(check.status == 0, "\(check.messages)")
        #expect(xml.contains("""
            <failure type="pick" message="sh-telecom&apos;s apps connect to 127.0.0.9 (first in the answer; ranking off) and it fails">\
            sh-telecom's apps connect to 127.0.0.9 (first in the answer; ranking off) and it fails
            status: expected 200, got 503</failure>
            """), "\(xml)")
        let cases = try ParsedElement.parse(xml).all("testcase")
        let out = cases.map { $0.first("system-out")?.text ?? "" }
        #expect(out[0].contains("\npicked by: gd-mobile (first in the answer; ranking off)\n"), "\(out[0])")
        #expect(out[1].contains("\npicked by: sh-telecom (first in the answer; ranking off)\n"), "\(out[1])")
        #expect(out[2].contains("\npicked by: this machine (fastest connect, 0.3 ms)\n"), "\(out[2])")
        #expect(out[3].contains("\npicked by: no population: this machine picks 127.0.0.2\n"), "\(out[3])")
        var ranked = Self.thisMachine[0]
        ranked.evidence.pick = Fixture.pick
        let junit = try RenderedReport.junit(Self.run([ranked]), redactor: Fixture.redactor)
        #expect(junit.contains("\nranking connects: 127.0.0.2:8443 0.3 ms, 127.0.0.9:8443 connection refused\n"), "\(junit)")
    }

    // MARK: JSON

    /// `evidence.pick` and `picked_by` as written, and `runner merge`'s reading of them.
    @Test func thePickSurvivesTheJSONReportAndMerge() throws {
        var ranked = Self.twoPopulations[0]
        ranked.evidence.pick = Fixture.pick
        let run = Self.run([ranked, Self.twoPopulations[1], Self.thisMachine[1]])
        let data = try RenderedReport.json(run, redactor: Fixture.redactor)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require((document["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let evidence = results.compactMap { $0["evidence"] as? [String: Any] }
        #expect(evidence.map { $0["picked_by"] as? [String] } == [["gd-mobile"], ["sh-telecom"], []])
        let pick = try #require(evidence[0]["pick"] as? [String: Any])
        #expect(pick["sdk"] as? String == "alibaba-ios" && pick["map"] as? String == "ali" && pick["host"] as? String == "api.lab.test")
        let connects = try #require(pick["connects"] as? [[String: Any]])
        #expect(connects.map { $0["connect_ms"] as? Double } == [0.312, nil])
        #expect(connects[1]["connect_ms"] is NSNull && connects[1]["error"] as? String == "connection refused")
        #expect(problemKinds(results[1]) == ["pick", "expectation"])

        let back = try run.readBack(data)
        #expect(back.suites[0].results.map(\.evidence.pick) == run.suites[0].results.map(\.evidence.pick))
        if case .failed(let problems) = back.suites[0].results[1].outcome, case .failed(let written) = run.suites[0].results[1].outcome {
            #expect(problems == written)
        } else {
            Issue.record("the failing pick did not read back as failed")
        }
        // Read back, it writes the same document.
        #expect(try RenderedReport.json(back, redactor: Fixture.redactor) == data)
    }

    private func problemKinds(_ result: [String: Any]) -> [String] {
        ((result["problems"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }
    }
}
