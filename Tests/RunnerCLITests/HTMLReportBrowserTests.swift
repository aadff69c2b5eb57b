import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// `--html FILE` in a real browser: headless Chromium loads the report of a lab run (the demo
/// plan, and a plan against the lab's `/markup`, whose server sends `<script>` in a header and
/// in the body) and the tests read the DOM it rendered — the matrix against the run's results
/// (its JSON report), the counts, the hostile value shown as text, no script of it run, and
/// the filters driven by the URL fragment. Without Chromium they fail, saying how to get it.
/// One browser at a time (`.serialized`): each takes both cores for a while as it starts.
@Suite("runner --html in a browser", .serialized, .timeLimit(.minutes(3)))
struct HTMLReportBrowserTests {
    /// One run's reports, shared by the tests.
    struct LabRun: Sendable {
        var html: URL
        var json: URL
        var output: ProcessOutput
        /// The page as Chromium rendered it, opened without a fragment.
        var dom: String
    }

    /// The run is made once for all the tests here, on first use.
    private static let run = Task { try await makeRun() }

    static let hostilePlan = """
        version: 1
        name: hostile
        defaults: {ca: "{{ca}}", domains: lab}
        domains: {lab: {static: {api.lab.test: [127.0.0.2, 127.0.0.5]}}}
        scenarios:
          - name: a server that sends markup
            tags: [hostile]
            strategy: [sni-resolve, trust-override]
            ips: all
            request: {url: "https://api.lab.test:{{https}}\(LabMarkup.path)"}
            expect:
              headers: {\(LabMarkup.headerName): calm}
              body: {contains: calm}
        """

    private static func makeRun() async throws -> LabRun {
        let lab = try await SharedLab.get()
        let cli = CLITests()
        let hostile = try LabPlans.write(hostilePlan, lab: lab, name: "hostile")
        let directory = try LabPlans.temporaryDirectory()
        let html = directory.appendingPathComponent("report.html")
        let json = directory.appendingPathComponent("report.json")
        let output = try await cli.runner(cli.demoArguments(lab) + [hostile, "-q", "--html", html.path, "--json", json.path])
        let dom = try await HeadlessChromium.renderedDOM(of: html)
        return LabRun(html: html, json: json, output: output, dom: dom)
    }

    // MARK: What the page shows

    @Test func theMatrixAndTheCountsAreTheRunsResults() async throws {
        let run = try await Self.run.value
        #expect(run.output.status == 1, "\(run.output.stdout)\n\(run.output.stderr)")
        #expect(run.output.stdout.hasSuffix("20 passed, 4 failed, 1 errors\n"), "\(run.output.stdout)")
        let dom = run.dom
        // The page's own script ran, under its Content-Security-Policy (it marks the page).
        #expect(dom.contains(#"<html lang="en" data-filters="ready">"#), "\(dom.prefix(300))")

        let report = try JSONReportRead(run.json)
        #expect(report.results.count == 25)
        // The flow's step names the result it ran after.
        #expect(dom.contains(#"<span class="after">after log in (a flow's first step) [sni-resolve 127.0.0.2]</span>"#))
        let rendered = try RenderedPage(dom)
        // A `<details>` per result, in plan order, saying its outcome, and a matrix cell each.
        #expect(rendered.results.map(\.status) == report.results.map(\.outcome))
        #expect(rendered.cells.count == report.results.count)
        for (result, expected) in zip(rendered.results, report.results) {
            let cell = rendered.cells[result.id]
            #expect(cell?.strategy == expected.strategy, "\(expected)")
            #expect(cell?.ip == (expected.ip ?? "no IP pinned"), "\(expected)")
            #expect(cell?.status == expected.outcome, "\(expected)")
        }
        // The hostile scenario's matrix: two IPs down, two strategies across, every cell a failure.
        let hostile = try #require(rendered.matrices.first { $0.strategies == ["sni-resolve", "trust-override"] && $0.ips.count == 2 })
        #expect(hostile.ips == ["127.0.0.2", "127.0.0.5"])
        #expect(hostile.statuses == [["failed", "failed"], ["failed", "failed"]])
        // The demo's scenario on every IP of the host: one column, three rows, all passed.
        #expect(rendered.matrices.contains { $0.ips == ["127.0.0.2", "127.0.0.5", "::1"] && $0.statuses == [["passed"], ["passed"], ["passed"]] })

        for (name, count) in [
            ("passed", report.summary.passed), ("failed", report.summary.failed), ("error", report.summary.errors),
            ("skipped", report.summary.skipped), ("flaky", 0), ("total", 25),
        ] {
            #expect(dom.contains(#"<b id="count-\#(name)">\#(count)</b>"#), "count of \(name)")
        }
        #expect(dom.contains(#"<output id="shown">25 of 25 results shown</output>"#))
        // Every result unfolds to its evidence.
        #expect(dom.contains("<dt>sni</dt><dd>api.lab.test</dd>"))
        #expect(dom.contains("<dt>names</dt><dd>api.lab.test"))
        #expect(dom.contains("so this endpoint needs sni-resolve"))
        #expect(!dom.contains(LabDNS.alibabaSecret))
    }

    /// The server's `<script>` and `<img onerror>` are text in the page: shown, escaped, and
    /// nothing of them ran (each would have marked `<body>` with `data-pwned`).
    @Test func aHostileServersMarkupIsShownAsTextAndRunsNothing() async throws {
        let run = try await Self.run.value
        let page = try String(contentsOf: run.html, encoding: .utf8)
        #expect(!page.contains(LabMarkup.payload))
        let dom = run.dom
        let asText = LabMarkup.payload.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        // The header and the body, in each of the four results' problems.
        #expect(dom.components(separatedBy: asText).count - 1 == 8, "\(dom)")
        #expect(dom.contains("<body>"), "body: \(dom.components(separatedBy: "<body").dropFirst().first?.prefix(80) ?? "")")
        #expect(!dom.contains("data-pwned"))
        #expect(!dom.contains("<img"))
        #expect(dom.components(separatedBy: "<script").count == 2, "one script: the page's own")
    }

    /// The second wall: markup that got past escaping (pasted into the page here by hand) is
    /// still refused by the page's Content-Security-Policy, while the page's own script runs.
    @Test func thePolicyBlocksMarkupThatGotPastEscaping() async throws {
        let run = try await Self.run.value
        let page = try String(contentsOf: run.html, encoding: .utf8)
        let broken = run.html.deletingLastPathComponent().appendingPathComponent("unescaped.html")
        try page.replacingOccurrences(of: "<main>\n", with: "<main>\n" + LabMarkup.payload + "\n")
            .write(to: broken, atomically: true, encoding: .utf8)
        let dom = try await HeadlessChromium.renderedDOM(of: broken)
        #expect(dom.contains("<img src=\"x\""), "the markup is in the page")
        #expect(!dom.contains("data-pwned"), "\(dom.components(separatedBy: "<body").dropFirst().first?.prefix(120) ?? "")")
        #expect(dom.contains(#"<html lang="en" data-filters="ready">"#))
    }

    // MARK: Filters

    @Test func theFiltersFollowTheURLFragment() async throws {
        let run = try await Self.run.value
        let report = try JSONReportRead(run.json)

        let notPassing = try RenderedPage(try await HeadlessChromium.renderedDOM(of: run.html, fragment: "status=failed,error"))
        #expect(notPassing.results.filter { !$0.hidden }.map(\.status) == ["error", "failed", "failed", "failed", "failed"])
        #expect(notPassing.shown == "5 of 25 results shown")
        // A scenario with nothing left to show is hidden whole, its matrix with it.
        #expect(notPassing.scenarios.count == 15 && notPassing.scenarios.filter { $0 }.count == 2)
        #expect(notPassing.dimmedCells == 20)

        let tagged = try RenderedPage(try await HeadlessChromium.renderedDOM(of: run.html, fragment: "tag=hostile"))
        let hostile = zip(tagged.results, report.results).filter { !$0.0.hidden }.map { $0.1.scenario }
        #expect(hostile == Array(repeating: "a server that sends markup", count: 4))
        #expect(tagged.shown == "4 of 25 results shown")

        // A matrix cell's link unfolds its result.
        let target = try #require(notPassing.results.first { $0.status == "error" }?.id)
        let opened = try RenderedPage(try await HeadlessChromium.renderedDOM(of: run.html, fragment: target))
        #expect(opened.results.filter(\.open).map(\.id) == [target])
        #expect(opened.shown == "25 of 25 results shown")
        // Filtered and unfolded by one link.
        let both = try RenderedPage(try await HeadlessChromium.renderedDOM(of: run.html, fragment: "status=error&open=\(target)"))
        #expect(both.results.filter(\.open).map(\.id) == [target])
        #expect(both.shown == "1 of 25 results shown")
    }
}

/// The JSON report of the run, as much as the tests compare.
struct JSONReportRead {
    struct Result: CustomStringConvertible {
        var scenario: String
        var strategy: String
        var ip: String?
        var outcome: String
        var description: String { "\(scenario) [\(strategy) \(ip ?? "-")] \(outcome)" }
    }

    struct Summary {
        var passed: Int
        var failed: Int
        var errors: Int
        var skipped: Int
    }

    var results: [Result]
    var summary: Summary

    init(_ file: URL) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let suites = try #require(object["suites"] as? [[String: Any]])
        results = suites.flatMap { ($0["results"] as? [[String: Any]]) ?? [] }.map { result in
            Result(
                scenario: result["scenario"] as? String ?? "", strategy: result["strategy"] as? String ?? "",
                ip: result["ip"] as? String, outcome: result["outcome"] as? String ?? "")
        }
        let summary = try #require(object["summary"] as? [String: Any])
        self.summary = Summary(
            passed: summary["passed"] as? Int ?? -1, failed: summary["failed"] as? Int ?? -1,
            errors: summary["errors"] as? Int ?? -1, skipped: summary["skipped"] as? Int ?? -1)
    }
}

/// What the tests read from the DOM Chromium rendered: it serializes the page as the report
/// wrote it, with the attributes the script changed (`hidden`, `open`, classes).
struct RenderedPage {
    struct Result {
        var id: String
        var status: String
        var hidden: Bool
        var open: Bool
    }

    struct Cell {
        var strategy: String
        var ip: String
        var status: String
    }

    struct Matrix {
        var strategies: [String]
        var ips: [String]
        /// Per row, per column: the status of the cell's result ("none" where nothing ran).
        var statuses: [[String]]
    }

    var results: [Result] = []
    /// By result id.
    var cells: [String: Cell] = [:]
    var matrices: [Matrix] = []
    /// Per scenario section, in order: whether it is shown.
    var scenarios: [Bool] = []
    var dimmedCells = 0
    var shown = ""

    init(_ dom: String) throws {
        for attributes in try Self.captures(#"<details (class="result[^>]*)>"#, in: dom) {
            let values = try Self.attributes(attributes)
            results.append(Result(
                id: values["id"] ?? "", status: values["data-status"] ?? "", hidden: values["hidden"] != nil,
                open: values["open"] != nil))
        }
        scenarios = try Self.captures(#"<section (class="scenario"[^>]*)>"#, in: dom).map { !$0.contains("hidden") }
        for table in try Self.captures(#"(<table class="matrix">[\s\S]*?</table>)"#, in: dom) {
            let strategies = try Self.captures(#"<th scope="col">([^<]*)</th>"#, in: table).dropFirst()
            var matrix = Matrix(strategies: Array(strategies), ips: [], statuses: [])
            for row in try Self.captures(#"(<tr><th scope="row">[\s\S]*?</tr>)"#, in: table) {
                let ip = try Self.captures(#"<th scope="row">([^<]*)</th>"#, in: row).first ?? ""
                matrix.ips.append(ip)
                var statuses: [String] = []
                for (column, cell) in try Self.captures(#"(<td[\s\S]*?</td>)"#, in: row).enumerated() {
                    let links = try Self.captures(#"<a (class="cell[^>]*)>"#, in: cell).map(Self.attributes)
                    statuses.append(links.first?["data-status"] ?? "none")
                    for link in links {
                        let strategy = column < matrix.strategies.count ? matrix.strategies[column] : "?"
                        cells[link["data-result"] ?? ""] = Cell(strategy: strategy, ip: ip, status: link["data-status"] ?? "")
                        if (link["class"] ?? "").split(separator: " ").contains("dim") { dimmedCells += 1 }
                    }
                }
                matrix.statuses.append(statuses)
            }
            matrices.append(matrix)
        }
        shown = try Self.captures(#"<output id="shown">([^<]*)</output>"#, in: dom).first ?? ""
    }

    /// `name="value"` pairs (and bare names) of a start tag's attributes.
    static func attributes(_ text: String) throws -> [String: String] {
        var values: [String: String] = [:]
        let regex = try NSRegularExpression(pattern: #"([a-z-]+)(?:="([^"]*)")?"#)
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
            values[name] = Range(match.range(at: 2), in: text).map { String(text[$0]) } ?? ""
        }
        return values
    }

    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
