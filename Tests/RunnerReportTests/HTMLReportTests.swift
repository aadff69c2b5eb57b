import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// The HTML report as written through the streaming path (results out of order, then
/// `finish`): its matrix, its counts, its evidence, its escaping and its redaction. What a
/// browser makes of it is `HTMLReportBrowserTests`' (RunnerCLITests).
@Suite struct HTMLReportTests {
    let html: String

    init() throws {
        html = try RenderedReport.html(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor)
    }

    /// Every match of `pattern`'s first group, in document order.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func theMatrixHasACellPerResultColouredByItsOutcome() throws {
        let cells = try Self.captures(##"<a class="cell ([a-z ]+)" href="#r"##, in: html)
        #expect(cells == ["passed", "failed", "error", "skipped", "passed", "failed"])
        // Each cell links to its result's details, which say the same status.
        let links = try Self.captures(##"<a class="cell [a-z ]+" href="#(r[0-9-]+)""##, in: html)
        let details = try Self.captures(#"<details class="result [a-z ]+" id="(r[0-9-]+)""#, in: html)
        #expect(links == details)
        #expect(links == ["r0-0-0", "r0-1-0", "r0-2-0", "r1-0-0", "r1-1-0", "r1-2-0"])
        let statuses = try Self.captures(#"<details class="result [a-z ]+" id="r[0-9-]+" data-status="([a-z]+)""#, in: html)
        #expect(statuses == cells)
    }

    @Test func theSummaryCountsTheRun() throws {
        let counts = try Self.captures(#"<b id="count-([a-z]+">[0-9]+)</b>"#, in: html)
        #expect(counts == [#"passed">2"#, #"failed">2"#, #"error">1"#, #"skipped">1"#, #"flaky">0"#, #"total">6"#])
        #expect(html.contains("<strong>interrupted by SIGINT</strong>"))
        #expect(html.contains("<output id=\"shown\">6 of 6 results shown</output>"))
        #expect(html.contains("<title>runner: prod.eu, staging — 2 passed, 2 failed, 1 errors, 1 skipped</title>"))
    }

    @Test func theEvidenceIsAllThere() throws {
        for fact in [
            "<dt>sni</dt><dd>api.example.com</dd>", "<dt>host</dt><dd>api.example.com</dd>",
            "<dt>connected</dt><dd>203.0.113.10:443</dd>", "<dt>connected</dt><dd>[2001:db8::10]:8443</dd>",
            "<dt>certificate</dt><dd>CN=api.example.com</dd>", "<dt>issuer</dt><dd>CN=Lab CA</dd>",
            "<dt>expires</dt><dd>2025-06-30T23:59:59Z</dd>", "<dt>names</dt><dd>api.example.com, www.example.com</dd>",
            "<dt>sni</dt><dd>none</dd>", "<dt>pinned ip</dt><dd>203.0.113.11</dd>", "hop 2 (redirect): GET http://api.example.com/v2/profile",
            "<dt>status</dt><dd>302</dd>", "<dt>connection</dt><dd>reused</dd>", "<dt>ip source</dt><dd>httpdns 'tencent' (dnspod)</dd>",
            "<b>status</b>: expected <code>200</code>, got <code>404</code>", "<b>tls error</b>: TLS handshake with",
            "<p class=\"diagnosis\">diagnosis: the server presents", "skipped: not run: interrupted by SIGINT",
            "<p class=\"insecure\">INSECURE: certificate verification was skipped", "<p class=\"nohop\">no request was sent</p>",
            "<dt>timings</dt><dd>resolve 0.100 ms, connect 1.200 ms, tls 5.400 ms, first byte 80.100 ms, total 82.300 ms</dd>",
            "<dt>tls</dt><dd>TLS 1.3, TLS_AES_256_GCM_SHA384<table class=\"chain\">",
            "<tr><td>1</td><td>CN=Lab CA</td><td>RSA 2048</td><td>sha256WithRSAEncryption</td><td><code>sha256/xMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMQ=</code></td></tr>",
            "<dt>curl</dt><dd><code class=\"curl\">curl -g -sS -i -H 'Host: api.example.com' 'https://203.0.113.12/checkout'</code>",
        ] {
            #expect(html.contains(fact), "\(fact)")
        }
    }

    @Test func theTagFilterListsEveryTagAndResultsCarryTheirNumbers() throws {
        let options = try Self.captures(#"<option value="([0-9]+">[^<]*)</option>"#, in: html).map { option in
            let parts = option.components(separatedBy: "\">")
            return (number: parts[0], name: parts[1])
        }
        let names = Dictionary(uniqueKeysWithValues: options.map { ($0.number, $0.name) })
        #expect(options.map(\.name).sorted() == options.map(\.name))
        let tags = try Self.captures(#"data-tags="([0-9 ]*)""#, in: html).map { numbers in
            numbers.split(separator: " ").map { names[String($0)] ?? "?" }
        }
        let hostileTag = MarkupEscaper.htmlText.escaped(PlainText.singleLine(Fixture.hostile))
        #expect(tags == [["login", "critical"], [], [], ["slow"], [], [hostileTag]])
    }

    @Test func secretsNeverAppear() throws {
        for secret in Fixture.forbidden {
            #expect(!html.contains(secret), "found \(secret)")
        }
        #expect(html.contains("key=***"))
    }

    /// The hostile string (markup, quotes, controls, a CDATA end) shows as text: its markup
    /// escaped, its controls as visible escapes; nothing of it is a tag or an attribute.
    @Test func hostileStringsAreEscaped() throws {
        #expect(!html.contains("weird <&"))
        #expect(html.contains("weird &lt;&amp;\"'&gt; \\u{0}\\u{7}\\u{1B}[31mred\\u{7F}\\u{85} 🚀👩‍💻"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        // Tags are only the report's own: every `<` starts one of the elements it writes.
        let elements = Set(try Self.captures(#"<([a-zA-Z!/][a-zA-Z0-9]*)"#, in: html))
        let own: Set<String> = [
            "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "p", "strong", "ul", "li",
            "b", "form", "fieldset", "legend", "label", "input", "select", "option", "output", "span", "main",
            "section", "h2", "small", "details", "summary", "dl", "dt", "dd", "h3", "table", "thead", "tr", "th",
            "tbody", "td", "a", "div", "svg", "title", "rect", "code", "ol", "h4", "script", "mark",
        ]
        #expect(elements.subtracting(own.union(own.map { "/" + $0 })).isEmpty, "\(elements.subtracting(own))")
    }

    /// One script and one stylesheet, both carrying the nonce the policy allows; nothing to fetch.
    @Test func thePolicyAllowsOnlyThePagesOwnStyleAndScript() throws {
        let policy = try #require(try Self.captures(#"<meta http-equiv="Content-Security-Policy" content="([^"]+)">"#, in: html).first)
        let nonce = try #require(try Self.captures(#"'nonce-([0-9a-f]{32})'"#, in: policy).first)
        #expect(policy == "default-src 'none'; style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; base-uri 'none'; form-action 'none'")
        #expect(try Self.captures(#"<script([^>]*)>"#, in: html) == [#" nonce="\#(nonce)""#])
        #expect(try Self.captures(#"<style([^>]*)>"#, in: html) == [#" nonce="\#(nonce)""#])
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains(" style=\""))
        // A fresh nonce each report.
        let other = try RenderedReport.html(Fixture.run(), redactor: Fixture.redactor)
        #expect(!other.contains(nonce))
    }

    /// Results of one scenario, out of order: a row per IP and a column per strategy in plan
    /// order, an empty cell where a combination did not run, the unpinned result in a row of its own.
    @Test func aScenarioMatrixLaysOutStrategiesAndIPs() throws {
        func result(_ strategy: StrategyKind, _ ip: String?, _ outcome: Outcome) -> ScenarioResult {
            ScenarioResult(
                scenario: "api", strategy: strategy, ip: ip, tags: [], outcome: outcome,
                evidence: Evidence(strategy: strategy, ipSource: "static map 'lab'", insecure: false), duration: .seconds(0.01))
        }
        let failure = Outcome.failed([Problem(subject: "status", expected: "200", actual: "503")])
        let suite = RecordedSuite(
            name: "matrix", file: "m.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
            results: [
                result(.sniResolve, "10.0.0.1", .passed), result(.sniResolve, "10.0.0.2", failure),
                result(.trustOverride, "10.0.0.1", .passed), result(.system, nil, .passed),
            ])
        let run = RecordedRun(suites: [suite], startedAt: Fixture.start, duration: .seconds(1))
        let report = try RenderedReport.html(run, redactor: Redactor(secrets: []), asOneScenario: true)
        let table = try #require(try Self.captures(#"(<table class="matrix">[\s\S]*?</table>)"#, in: report).first)
        #expect(try Self.captures(#"<th scope="col">([^<]*)</th>"#, in: table) == ["IP", "sni-resolve", "trust-override", "system"])
        #expect(try Self.captures(#"<th scope="row">([^<]*)</th>"#, in: table) == ["10.0.0.1", "10.0.0.2", "no IP pinned"])
        let rows = try Self.captures(#"<tr><th scope="row">[^<]*</th>(.*)</tr>"#, in: table).map { row in
            try Self.captures(#"<td( class="none"|>[^<]*<a class="cell [a-z]+)"#, in: row)
        }
        #expect(rows == [
            [#"><a class="cell passed"#, #"><a class="cell passed"#, #" class="none""#],
            [#"><a class="cell failed"#, #" class="none""#, #" class="none""#],
            [#" class="none""#, #" class="none""#, #"><a class="cell passed"#],
        ])
        #expect(try Self.captures(#"<section class="(scenario)">"#, in: report).count == 1)
    }

    @Test func aPhaseBarAddsUpItsHops() {
        // Pinned: the resolve (the runner's lookup) came before libcurl's clock started.
        let bar = HTMLPhaseBar([Fixture.loginHop])
        #expect(abs(bar.resolve - 0.0001) < 1e-9 && abs(bar.connect - 0.0012) < 1e-9 && abs(bar.tls - 0.0054) < 1e-9)
        #expect(abs(bar.firstByte - (0.0801 - 0.0012 - 0.0054)) < 1e-9)
        #expect(abs(bar.transfer - (0.0823 - 0.0801)) < 1e-9)
        let widths = bar.segmentWidths
        #expect(widths.reduce(0, +) == HTMLPhaseBar.width)
        #expect(widths.allSatisfy { $0 >= 1 })
        #expect(widths[3] == widths.max())
        // Not pinned (the system resolver): libcurl's own lookup is on its clock.
        var system = Fixture.loginHop
        system.connection.pinnedIP = nil
        #expect(abs(HTMLPhaseBar([system]).firstByte - (0.0801 - 0.0067)) < 1e-9)
        // Two hops of a redirect add up.
        let redirect = HTMLPhaseBar([Fixture.redirectHop, Fixture.notFoundHop])
        #expect(abs(redirect.firstByte - (0.008 + 0.003)) < 1e-9 && abs(redirect.transfer - 0.002) < 1e-9)
        #expect(HTMLPhaseBar([]).segmentWidths == [0, 0, 0, 0, 0])
    }

    /// A hop that got no response: its time went to the phase that did not complete.
    @Test func aHopWithoutAResponseChargesThePhaseThatFailed() {
        func hop(_ url: String, _ timings: Timings) -> HopEvidence {
            var hop = HopEvidence(
                method: "GET", originalURL: url, urlSent: url, hostHeader: "h", sni: nil, pinnedIP: "10.0.0.1", strategy: .headerOnly,
                timings: timings)
            hop.newConnection = true
            return hop
        }
        let handshake = HTMLPhaseBar([hop("https://10.0.0.1/", Timings(resolve: .seconds(0), connect: .seconds(0.002), total: .seconds(0.010)))])
        #expect(abs(handshake.tls - 0.008) < 1e-9 && handshake.firstByte == 0)
        let refused = HTMLPhaseBar([hop("https://10.0.0.1/", Timings(resolve: .seconds(0), total: .seconds(0.003)))])
        #expect(abs(refused.connect - 0.003) < 1e-9)
        // Connected, no connect time (libcurl's way when the handshake then fails): TLS.
        var connected = hop("https://10.0.0.1/", Timings(resolve: .seconds(0), total: .seconds(0.033)))
        connected.connectedIP = "10.0.0.1"
        #expect(abs(HTMLPhaseBar([connected]).tls - 0.033) < 1e-9)
        let silent = HTMLPhaseBar([hop("http://10.0.0.1/", Timings(resolve: .seconds(0), connect: .seconds(0.001), total: .seconds(5)))])
        #expect(abs(silent.firstByte - 4.999) < 1e-9 && silent.tls == 0)
    }

    @Test func aMatrixCellRecordRoundTrips() throws {
        let position = ResultPosition(suite: 1, scenario: 2, slot: 3)
        for cell in [
            HTMLMatrixCell(status: .error, flaky: false, scenario: "a 🚀 <b>", strategy: "sni-resolve", ip: "::1", position: position),
            HTMLMatrixCell(status: .passed, flaky: true, scenario: "", strategy: "system", ip: nil, position: position),
            HTMLMatrixCell(status: .skipped, flaky: false, scenario: "x", strategy: "y", ip: "", position: position),
        ] {
            var bytes = ByteBuffer()
            cell.encode(into: &bytes)
            let decoded = bytes.withUnsafeBytes { HTMLMatrixCell(decoding: UnsafeRawBufferPointer($0), at: position) }
            #expect(decoded == cell)
            // Cut short, or with a byte too many: not a record.
            let array = bytes.array
            #expect(array.dropLast().withUnsafeBytes { HTMLMatrixCell(decoding: $0, at: position) } == nil)
            #expect((array + [0]).withUnsafeBytes { HTMLMatrixCell(decoding: $0, at: position) } == nil)
        }
    }
}
