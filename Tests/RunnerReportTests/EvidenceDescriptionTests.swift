import Foundation
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

/// A result's evidence is described once (`ScenarioResult.describeEvidence`, and per hop
/// `HopEvidence.describe`); the console and JUnit text and the HTML report walk that one list.
@Suite struct EvidenceDescriptionTests {
    /// A result with every kind of fact of the whole result: tags, a resolver's answer, why
    /// `expect.dns` was not checked, two hops, a plain and a secret capture, two notes.
    static let result: ScenarioResult = {
        var evidence = Fixture.failed.evidence
        evidence.dns = Fixture.run().suites[1].results[0].evidence.dns
        evidence.dnsNotChecked = "expect.dns not checked: no resolver"
        evidence.captured = [CaptureRecord(name: "order", value: "A-17"), CaptureRecord(name: "session", value: nil)]
        evidence.notes.append("a second note")
        return ScenarioResult(
            scenario: "described", strategy: .headerOnly, ip: "203.0.113.11", tags: ["smoke", "eu"],
            outcome: Fixture.failed.outcome, evidence: evidence, duration: .seconds(0.5))
    }()

    /// The labels of the facts of the whole result, and what stands between them, in the
    /// order the description gives them.
    struct Outline: EvidenceSink {
        var items: [String] = []
        var inHop = false

        mutating func beginFact(_ label: StaticString) { if !inHop { items.append("\(label)") } }
        mutating func endFact() {}
        mutating func literal(_ text: StaticString) {}
        mutating func text(_ text: String) {}
        mutating func value(_ value: String) {}
        mutating func number(_ value: Int) {}
        mutating func milliseconds(_ duration: Duration) {}
        mutating func certificate(_ certificate: CertificateSummary?) {}
        mutating func tls(_ session: TLSSession) {}
        mutating func dnsLookup(_ lookup: DNSLookupEvidence) { items.append("dns " + lookup.host) }
        mutating func beginHop(_ number: Int, _ hop: HopEvidence) {
            items.append("hop \(number)")
            inHop = true
        }
        mutating func endHop(_ hop: HopEvidence, of evidence: Evidence) { inHop = false }
        mutating func beginRemark(_ kind: EvidenceRemark) { items.append("\(kind)") }
        mutating func endRemark() {}
    }

    @Test func theDescriptionListsEveryFactOfTheResultInOrder() {
        var outline = Outline()
        Self.result.describeEvidence(into: &outline)
        #expect(outline.items == [
            "strategy", "ip source", "tags", "dns api.example.com", "dnsNotChecked", "hop 1", "hop 2", "captured",
            "captured", "note", "note",
        ])
    }

    @Test func theTextShowsTheListALineEach() {
        let lines = EvidenceText.lines(for: Self.result, redactor: Fixture.redactor)
        let unindented = lines.filter { !$0.hasPrefix(" ") }
        #expect(unindented == [
            "strategy: header-only", "ip source: httpdns 'tencent' (dnspod)", "tags: smoke, eu",
            "dns: api.example.com from resolver 192.0.2.53, NOT within 'tencent'",
            "dns: expect.dns not checked: no resolver",
            "hop 1: GET http://api.example.com/profile?token=***", "hop 2: GET http://api.example.com/v2/profile",
            "captured: order = A-17", "captured: session (secret)",
            "note: fell back to the system resolver for cdn.example.com; query had key=***", "note: a second note",
        ])
    }

    @Test func theHTMLReportShowsTheSameList() throws {
        let run = RecordedRun(
            suites: [
                RecordedSuite(
                    name: "d", file: "d.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                    results: [Self.result])
            ],
            startedAt: Fixture.start, duration: .seconds(1))
        let html = try RenderedReport.html(run, redactor: Fixture.redactor)
        let body = try #require(try HTMLReportTests.captures(#"<div class="body">([\s\S]*?)</div>\n</details>"#, in: html).first)
        // The facts of the whole result in one list, then what the resolver said, then the hops,
        // then the captured values and notes in one list: the text's order.
        let facts = try HTMLReportTests.captures(#"<dl class="facts">(.*?)</dl>"#, in: body)
        #expect(facts == [
            "<dt>strategy</dt><dd>header-only</dd><dt>ip source</dt><dd>httpdns 'tencent' (dnspod)</dd>"
                + "<dt>tags</dt><dd>smoke, eu</dd>"
        ])
        let notes = try HTMLReportTests.captures(#"<ul class="notes">\n([\s\S]*?)</ul>"#, in: body)
        #expect(notes == [
            "<li>captured: order = A-17</li>\n<li>captured: session (secret)</li>\n"
                + "<li>note: fell back to the system resolver for cdn.example.com; query had key=***</li>\n"
                + "<li>note: a second note</li>\n"
        ])
        let order = ["<dl class=\"facts\">", "<div class=\"dns\">", "<p class=\"dns-unchecked\">", "hop 1:", "hop 2 (redirect):", "<ul class=\"notes\">"]
        let places = order.map { body.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(places)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
    }
}
