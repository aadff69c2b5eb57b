import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

@Suite struct JUnitReportTests {
    let xml: String

    init() throws {
        xml = try RenderedReport.junit(Fixture.run(), redactor: Fixture.redactor)
    }

    @Test func validatesAgainstTheJenkinsSchema() throws {
        let check = try SchemaCheck.validate(xml)
        #expect(check.status == 0, "\(check.messages)")
    }

    @Test(arguments: [
        RecordedRun(suites: [], startedAt: Fixture.start, duration: .seconds(0)),
        RecordedRun(
            suites: [RecordedSuite(
                name: "empty", file: "e.yaml", startedAt: Fixture.start, duration: .seconds(-1), hostname: "h",
                properties: [], results: [])],
            startedAt: Fixture.start, duration: .seconds(1e15)),
    ])
    func degenerateRunsStillValidate(run: RecordedRun) throws {
        let check = try SchemaCheck.validate(try RenderedReport.junit(run, redactor: Fixture.redactor))
        #expect(check.status == 0, "\(check.messages)")
    }

    @Test func testsuitesCarriesOnlyTheTotals() throws {
        #expect(xml.contains("\n<testsuites name=\"runner\" tests=\"6\" failures=\"2\" errors=\"1\" time=\"2.500\">\n"))
        let root = try ParsedElement.parse(xml)
        #expect(Set(root.attributes.keys) == ["name", "tests", "failures", "errors", "time"])
    }

    @Test func eachSuiteHasItsCountsTimestampAndProperties() {
        #expect(xml.contains("""
              <testsuite name="prod.eu" tests="3" failures="1" errors="1" skipped="0" time="1.250" \
            timestamp="2024-05-01T10:00:00Z" hostname="ci-01" file="plans/prod.eu.yaml">
                <properties>
                  <property name="runner.version" value="1.0.0"/>
                  <property name="plan" value="plans/prod.eu.yaml"/>
                  <property name="domains.builtin" value="api.example.com: 203.0.113.10, 203.0.113.11"/>
                  <property name="domains.tencent" value="http://119.29.29.29/d?dn=api.example.com&amp;key=***"/>
                </properties>
                <testcase name="login over SNI [sni-resolve 203.0.113.10]" classname="prod_eu" time="0.123">
            """))
        #expect(xml.contains("""
              <testsuite name="staging" tests="3" failures="1" errors="0" skipped="1" time="1.000" \
            timestamp="2024-05-01T10:00:02Z" hostname="ci-01" file="plans/staging.yaml">
            """))
    }

    @Test func aFailureListsEveryProblemUnderTheFirst() {
        #expect(xml.contains("""
                <testcase name="profile [header-only 203.0.113.11]" classname="prod_eu" time="0.456">
                  <failure type="expectation" message="status: expected 200, got 404">status: expected 200, got 404
            header Content-Type: expected contains "json", got text/html
            header X-Echo-Authorization: expected absent, got Bearer ***</failure>
                  <system-out>strategy: header-only
            """))
    }

    @Test func anErrorCarriesItsKindMessageAndDiagnosis() {
        #expect(xml.contains("""
                  <error type="tls" message="TLS handshake with 203.0.113.12:443 failed: certificate name mismatch \
            (sent Authorization: Bearer ***)">TLS handshake with 203.0.113.12:443 failed: certificate name mismatch \
            (sent Authorization: Bearer ***)
            diagnosis: the server presents `default.lab.test` without SNI and `api.example.com` with it, \
            so this endpoint needs `sni-resolve`</error>
            """))
    }

    @Test func aSkippedResultSaysWhy() {
        #expect(xml.contains("""
                <testcase name="slow one [system]" classname="staging" time="0.000">
                  <skipped message="not run: interrupted by SIGINT"/>
                  <system-out>strategy: system
            ip source: resolver 192.0.2.53
            tags: slow
            dns: api.example.com from resolver 192.0.2.53, NOT within 'tencent'
              A: NOERROR, cname edge.example.net, 203.0.113.10 198.51.100.66, ttl 60, 2.100 ms
              AAAA: NXDOMAIN, no such name (NXDOMAIN), 1.300 ms
              foreign: 198.51.100.66
            dns: expect.dns not checked: the addresses came from static map 'builtin', not a resolver
            no request was sent
            </system-out>
            """))
    }

    @Test func everyTestcaseHasItsEvidenceAndInsecureIsLoud() throws {
        let root = try ParsedElement.parse(xml)
        let cases = root.all("testcase")
        #expect(cases.count == 6)
        for testcase in cases {
            #expect(testcase.first("system-out")?.text.contains("strategy: ") == true)
        }
        let insecure = try #require(cases.first { $0.attributes["name"] == "legacy admin [sni-resolve 2001:db8::10]" })
        let out = try #require(insecure.first("system-out")?.text)
        #expect(out.hasPrefix("INSECURE: certificate verification was skipped (insecure: true)\n"))
        #expect(out.contains("  connected: [2001:db8::10]:8443\n"))
        let trustOverride = try #require(cases.first { $0.attributes["name"] == "checkout [trust-override 203.0.113.12]" })
        #expect(trustOverride.first("system-out")?.text.contains("  sni: none\n") == true)
        #expect(cases.filter { $0.first("system-out")?.text.contains("INSECURE") == true }.count == 1)
    }

    @Test func theSystemOutIsTheSharedEvidenceText() throws {
        let root = try ParsedElement.parse(xml)
        let login = try #require(root.all("testcase").first)
        let expected = EvidenceText.lines(for: Fixture.passed, redactor: Fixture.redactor, showingChain: false)
        #expect(login.first("system-out")?.text == expected.joined(separator: "\n") + "\n")
    }

    /// A passing result's TLS line stands alone; its chain (a line and a pin per certificate)
    /// is for a result that did not pass, or under `--verbose`.
    @Test func theChainIsShownForAResultThatDidNotPassOrUnderVerbose() throws {
        func systemOut(_ result: ScenarioResult, verbose: Bool) throws -> String {
            let run = RecordedRun(
                suites: [RecordedSuite(
                    name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                    results: [result])],
                startedAt: Fixture.start, duration: .seconds(1))
            let root = try ParsedElement.parse(try RenderedReport.junit(run, redactor: Fixture.redactor, verbose: verbose))
            return try #require(root.all("testcase").first?.first("system-out")?.text)
        }
        var failing = Fixture.passed
        failing.outcome = .failed([Problem(subject: "status", expected: "201", actual: "200")])
        let tls = "  tls: TLS 1.3, TLS_AES_256_GCM_SHA384\n"
        let chain = "  chain 0: CN=api.example.com; EC 256; ecdsa-with-SHA256; sha256/"
        let passing = try systemOut(Fixture.passed, verbose: false)
        #expect(passing.contains(tls) && !passing.contains(chain), "\(passing)")
        #expect(passing.contains("  certificate: subject CN=api.example.com; issuer CN=Lab CA; expires 2025-06-30T23:59:59Z"))
        for (result, verbose) in [(Fixture.passed, true), (failing, false)] {
            let shown = try systemOut(result, verbose: verbose)
            #expect(shown.contains(tls + chain), "\(shown)")
        }
    }

    @Test func noSecretAppears() {
        for secret in Fixture.forbidden {
            #expect(!xml.contains(secret), "found \(secret)")
        }
        #expect(xml.contains("***"))
    }

    @Test func hostileStringsRoundTripAsValidXML() throws {
        let root = try ParsedElement.parse(xml)
        let hostileCase = try #require(root.all("testcase").last)
        let expectedName = xmlSafe(Fixture.redactor.redact(Fixture.hostileResult.displayName))
        #expect(hostileCase.attributes["name"] == expectedName)
        // The first problem becomes the message: one line, controls shown as escapes.
        let message = try #require(hostileCase.first("failure")?.attributes["message"])
        #expect(message.hasPrefix("body contains: expected <token> & ***, got weird <&\"'> \\u{0}\\u{7}\\u{1B}[31mred"))
        #expect(message.contains("🚀👩‍💻"))
        #expect(hostileCase.first("failure")?.text.split(separator: "\n").count == 2)
        let check = try SchemaCheck.wellFormed(xml)
        #expect(check.status == 0, "\(check.messages)")
    }

    /// Table: each string as a scenario name, a skip reason, an error message and a property
    /// still gives a schema-valid document, and parses back as the string with only the
    /// characters XML 1.0 forbids replaced.
    @Test(arguments: [
        "<&\"'>", "\u{0}", "\u{1B}[2J", "\u{FFFE}\u{FFFF}", "]]>", "a\r\nb\r", "\t lead and trail \t",
        "emoji 🧪🏳️‍🌈", "\u{D7FF}\u{E000}\u{10FFFF}", "&amp; already escaped", "\u{85}\u{2028}",
    ])
    func anyStringYieldsValidXML(value: String) throws {
        let result = ScenarioResult(
            scenario: value, strategy: .system, ip: nil, tags: [],
            outcome: .errored(TransferError(kind: .io, message: value, diagnosis: value)),
            evidence: Evidence(strategy: .system, ipSource: value, insecure: false, notes: [value]), duration: .seconds(0))
        let skipped = ScenarioResult(
            scenario: "s", strategy: .system, ip: nil, tags: [], outcome: .skipped(reason: value),
            evidence: Evidence(strategy: .system, ipSource: "x", insecure: false), duration: .seconds(0))
        let suite = RecordedSuite(
            name: value, file: value, startedAt: Fixture.start, duration: .seconds(0), hostname: value,
            properties: [Property(name: value, value: value)], results: [result, skipped])
        let xml = try RenderedReport.junit(
            RecordedRun(suites: [suite], startedAt: Fixture.start, duration: .seconds(0)), redactor: Redactor(secrets: []))

        let check = try SchemaCheck.validate(xml)
        #expect(check.status == 0, "\(check.messages)")
        let root = try ParsedElement.parse(xml)
        let safe = xmlSafe(value)
        #expect(root.first("testsuite")?.attributes["name"] == safe)
        #expect(root.first("testsuite")?.attributes["hostname"] == safe)
        #expect(root.first("property")?.attributes["value"] == safe)
        #expect(root.first("testcase")?.attributes["name"] == xmlSafe(result.displayName))
        #expect(root.first("error")?.attributes["message"] == safe)
        #expect(root.first("error")?.text == "\(safe)\ndiagnosis: \(safe)")
        #expect(root.first("skipped")?.attributes["message"] == safe)
    }

    @Test func classnameReplacesEveryDot() throws {
        let suite = RecordedSuite(
            name: "api.v2.prod", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(0), hostname: "h",
            properties: [], results: [Fixture.passed])
        let xml = try RenderedReport.junit(
            RecordedRun(suites: [suite], startedAt: Fixture.start, duration: .seconds(0)), redactor: Fixture.redactor)
        let root = try ParsedElement.parse(xml)
        #expect(root.first("testcase")?.attributes["classname"] == "api_v2_prod")
        #expect(root.first("testsuite")?.attributes["name"] == "api.v2.prod")
    }
}

/// What a parser must read back: the input with the characters XML 1.0 forbids replaced.
func xmlSafe(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: out.append(scalar)
        default: out.append("\u{FFFD}")
        }
    }
    return String(out)
}

@Suite struct SchemaCheckTests {
    /// Guards the guard: the validation above would prove nothing if xmllint accepted anything.
    @Test(arguments: [
        #"<testsuites name="runner" skipped="1"/>"#,
        #"<testsuites><testsuite name="x" tests="1" failures="0"/></testsuites>"#,
        #"<testsuites><testsuite name="x" tests="1" failures="0" errors="0" time="1,5.0"/></testsuites>"#,
        #"<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>"#,
    ])
    func invalidDocumentsAreRejected(xml: String) throws {
        #expect(try SchemaCheck.validate(xml).status != 0)
    }

    /// The repository stands alone: the schema is its own file, not one beside the checkout.
    @Test func theSchemaIsInTheRepository() throws {
        let schema = Repository.junitSchema.standardized.path
        #expect(schema.hasPrefix(Repository.root.standardized.path + "/"))
        #expect(FileManager.default.fileExists(atPath: schema))
    }
}
