import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults
import RunnerVocabulary

@Suite struct MetricsReportTests {
    /// Every family, every value worked out by hand (MetricsFixture says how), the hostile
    /// name escaped and its secret masked; promtool finds nothing wrong with it.
    @Test func theExpositionOfAFixtureRunIsExact() async throws {
        let text = try RenderedReport.metrics(MetricsFixture.run(), redactor: Fixture.redactor)
        let p = #"plan="prod",scenario="login over SNI",strategy="sni-resolve",ip="203.0.113.10""#
        let f = #"plan="prod",scenario="profile",strategy="header-only",ip="203.0.113.11""#
        let e = #"plan="prod",scenario="checkout",strategy="trust-override",ip="203.0.113.12""#
        let s = #"plan="prod",scenario="slow one",strategy="system",ip="""#
        let h = #"plan="prod",scenario="health",strategy="sni-resolve",ip="2001:db8::10""#
        let x = #"plan="prod",scenario="say \"hi\" \\ to\nline two ***",strategy="system",ip="""#
        let ran = [p, f, e, h, x]
        func family(_ name: String, _ help: String, _ samples: [String], type: String = "gauge") -> String {
            "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" + samples.map { "\(name)\($0)\n" }.joined()
        }
        func each(_ labels: [String], _ values: [String]) -> [String] {
            zip(labels, values).map { "{\($0)} \($1)" }
        }
        func phases(_ labels: String, _ values: [String]) -> [String] {
            zip(["resolve", "connect", "tls", "processing", "transfer"], values).map { "{\(labels),phase=\"\($0)\"} \($1)" }
        }
        func statuses(_ labels: String, _ status: String) -> [String] {
            ["pass", "fail", "error", "skipped"].map { "{\(labels),status=\"\($0)\"} \($0 == status ? 1 : 0)" }
        }
        let lookups = [#"plan="prod",map="ali",host="api.example.com""#, #"plan="prod",map="tencent",host="api.example.com""#]
        var phaseSamples: [String] = phases(p, ["0.0001", "0.0012", "0.0054", "0.0734", "0.0022"])
        phaseSamples += phases(f, ["0", "0.002", "0", "0.011", "0.002"])
        phaseSamples += phases(e, ["0", "0.001", "0", "0", "0"])
        phaseSamples += phases(h, ["0", "0.0005", "0.002", "0.0075", "0.0005"])
        phaseSamples += phases(x, ["0", "0", "0", "0.004", "0.001"])
        var statusSamples: [String] = statuses(p, "pass") + statuses(f, "fail") + statuses(e, "error")
        statusSamples += statuses(s, "skipped") + statuses(h, "pass") + statuses(x, "fail")
        let expected: [String] = [
            family("probe_success", "Whether the result passed (1) or not (0).", each(ran, ["1", "0", "0", "1", "0"])),
            family(
                "probe_duration_seconds", "Seconds the result's last attempt took, from its first byte sent to its verdict.",
                each(ran, ["0.123", "0.456", "0.05", "0.0105", "0.005"])),
            family(
                "probe_http_duration_seconds", "Seconds of each phase of the result's requests, summed over all redirects.",
                phaseSamples),
            family(
                "probe_http_status_code", "HTTP status of the final response (0 without one).",
                each(ran, ["200", "404", "0", "204", "500"])),
            family(
                "probe_http_version", "HTTP version of the final response: 1, 1.1, 2 or 3 (0 without one).",
                each(ran, ["2", "1.1", "0", "1.1", "1.1"])),
            family("probe_http_redirects", "The number of redirects followed.", each(ran, ["0", "1", "0", "0", "0"])),
            family(
                "probe_ssl_earliest_cert_expiry",
                "The earliest expiry (notAfter) of the certificates the final server presented, in Unix seconds; an expired or untrusted chain included.",
                // The chain's CA expires a day before the leaf.
                ["{\(p)} 1751241599"]),
            family(
                "probe_tls_version_info", "The TLS version the final response's connection negotiated, as a label; always 1.",
                ["{\(p),version=\"TLS 1.3\"} 1"]),
            family("probe_http_ssl", "Whether the final response came over TLS (1) or not (0).", each(ran, ["1", "0", "0", "0", "0"])),
            family(
                "probe_ip_protocol", "The IP family of the result's address: 4 or 6 (0 without one).", each(ran, ["4", "4", "4", "6", "0"])),
            family(
                "probe_dns_lookup_time_seconds",
                "Seconds the result's address took to look up: its map's HTTPDNS or resolver lookup (0 for a static map or an answer already at hand).",
                each(ran, ["0.0001", "0", "0", "0", "0"])),
            family(
                "probe_http_content_length",
                "The Content-Length the final response declared (-1 when it declared none, 0 without a response).",
                each(ran, ["27", "-1", "0", "-1", "-1"])),
            family(
                "probe_http_uncompressed_body_length", "Bytes of the final response's body, decoded.", each(ran, ["27", "9", "0", "0", "0"])),
            family(
                "probe_tls_cipher_info",
                "The cipher the final response's connection negotiated (OpenSSL's name), as a label; always 1.",
                ["{\(p),cipher=\"TLS_AES_256_GCM_SHA384\"} 1"]),
            family(
                "probe_ssl_last_chain_expiry_timestamp_seconds",
                "The earliest expiry (notAfter) in the final response's verified chain, in Unix seconds.", ["{\(p)} 1751241599"]),
            family(
                "probe_ssl_last_chain_info",
                "The leaf of the final response's verified chain, as labels (its SHA-256, subject, issuer, subjectAltName and serial); always 1.",
                ["{\(p),fingerprint_sha256=\"\(String(repeating: "0f", count: 32))\",subject=\"CN=api.example.com\",issuer=\"CN=Lab CA\","
                    + "subjectalternative=\"api.example.com,www.example.com\",serialnumber=\"1a2b3c\"} 1"]),
            family(
                "runner_result", "The result's status: 1 for the one it had, 0 for the others (pass, fail, error, skipped).",
                statusSamples),
            family("runner_result_flaky", "Whether the result passed only on a retry.", each(ran, ["0", "0", "0", "1", "0"])),
            family(
                "runner_resolution_fallback",
                "Whether the result's IP came from a domain map's fallback because its HTTPDNS service failed.",
                each(ran, ["0", "0", "0", "1", "0"])),
            family(
                "runner_httpdns_lookup_success",
                "Whether the HTTPDNS service answered the lookup with at least one address (before any fallback).",
                each(lookups, ["0", "1"])),
            family(
                "runner_httpdns_lookup_duration_seconds", "Seconds the HTTPDNS lookup took, every query and service address tried.",
                each(lookups, ["1.5", "0.0123"])),
            family(
                "runner_httpdns_answer_addresses", "Addresses in the HTTPDNS service's answer (0 when it failed).",
                each(lookups, ["0", "2"])),
            family("runner_cycle_duration_seconds", "Seconds the latest completed cycle took.", [" 2.5"]),
            family("runner_last_cycle_timestamp_seconds", "When the latest completed cycle ended, in Unix seconds.", [" 1714557602.5"]),
            family("runner_cycles_total", "Cycles completed.", [" 1"], type: "counter"),
            family(
                "runner_config_last_reload_successful", "Whether the plans were last loaded (or reloaded) without errors.",
                [" 1"]),
            family("runner_build_info", "The runner's version, as a label; always 1.", [#"{version="1.2.3"} 1"#]),
        ]
        #expect(text == expected.joined())
        try await Self.expectValid(text)
    }

    /// The hostile name reads back whole (escaped, not cut), its secret masked.
    @Test func aHostileNameReadsBackWithItsSecretMasked() throws {
        let text = try RenderedReport.metrics(MetricsFixture.run(), redactor: Fixture.redactor)
        let names = Set(Exposition.samples(text).compactMap { $0.labels.first { $0.name == "scenario" }?.value })
        #expect(names.contains("say \"hi\" \\ to\nline two ***"), "\(names)")
        #expect(!text.contains(Fixture.secret))
    }

    /// The shared fixture: markup, control characters, emoji, non-characters, secrets made of
    /// metacharacters in names, hosts and evidence; two plans; a TLS version that is no number.
    @Test func theHostileFixtureGivesAValidExpositionWithoutSecrets() async throws {
        let text = try RenderedReport.metrics(Fixture.run(interruptedBy: 2), redactor: Fixture.redactor)
        for form in Fixture.forbidden { #expect(!text.contains(form), "\(form)") }
        let samples = Exposition.samples(text)
        #expect(Set(samples.compactMap { $0.labels.first { $0.name == "plan" }?.value }) == ["prod.eu", "staging"])
        // Six results, four statuses each.
        #expect(samples.filter { $0.name == "runner_result" }.count == 24)
        // An HTTP version that is no version reads 0, as a missing one does.
        let hostileVersion = samples.first { $0.name == "probe_http_version" && $0.labels[1].value.hasPrefix("weird") }
        #expect(hostileVersion?.value == "0")
        try await Self.expectValid(text)
    }

    /// Plans that share a name get their file in the `plan` label, a file given twice its
    /// place too: no two plans' series collide.
    @Test func plansSharingANameAreToldApart() {
        let plans = [
            PlanIdentity(name: "api", file: "a/api.yaml"), PlanIdentity(name: "api", file: "b/api.yaml"),
            PlanIdentity(name: "web", file: "web.yaml"), PlanIdentity(name: "api", file: "a/api.yaml"),
            PlanIdentity(name: "key \(Fixture.secret)", file: "k.yaml"),
        ]
        #expect(MetricsCollector.planLabels(plans, redactor: Fixture.redactor) == [
            "api (a/api.yaml)", "api (b/api.yaml)", "web", "api (a/api.yaml) #2", "key ***",
        ])
    }

    /// An address listed twice in a static map runs twice under `ips: all`: the second run's
    /// series get ` #2` on their scenario label (in plan order, whatever order they finished
    /// in), and the exposition stays valid.
    @Test func aResultRunTwiceGetsADistinctScenarioLabel() async throws {
        var suite = MetricsFixture.suite
        suite.results = [Fixture.passed, Fixture.passed, Fixture.passed]
        suite.httpdnsLookups = []
        var run = RecordedRun(suites: [suite], startedAt: Fixture.start, duration: .seconds(1))
        run.suites[0].name = "dup"
        // The same scenario, so the same (suite, scenario) position, three slots.
        let collector = MetricsCollector(plans: run.plans, redactor: Fixture.redactor)
        for slot in [2, 0, 1] {
            collector.finished(Fixture.passed, at: ResultPosition(suite: 0, scenario: 0, slot: slot))
        }
        let text = String(decoding: MetricsExposition(
            cycle: collector.samples(of: run.result), cyclesTotal: 1, configLastReloadSuccessful: true, version: "1"
        ).render(), as: UTF8.self)
        let names = Exposition.samples(text).filter { $0.name == "probe_success" }.map { $0.labels[1].value }
        #expect(names == ["login over SNI", "login over SNI #2", "login over SNI #3"])
        try await Self.expectValid(text)
    }

    /// The client families: per population, its distinct addresses under every strategy, those
    /// on which every result passed, its misses; its own labels after `client`, but for one a
    /// constant label also takes (the constant one stays, once).
    @Test func populationsCountTheirEdgesAcrossStrategies() async throws {
        let mobile = ClientIdentity(name: "gd-mobile", labels: [.init(name: "isp", value: "cm"), .init(name: "vantage", value: "x")])
        let unicom = ClientIdentity(name: "bj-unicom", labels: [.init(name: "isp", value: "cu"), .init(name: "vantage", value: "x")])
        func result(_ strategy: StrategyKind, _ ip: String?, _ outcome: Outcome, _ clients: [ClientIdentity]) -> ScenarioResult {
            var result = Fixture.passed
            result.scenario = "api"
            result.strategy = strategy
            result.ip = ip
            result.outcome = outcome
            result.evidence.clients = clients
            return result
        }
        let miss = Problem(subject: Problem.edgesSubject(of: "gd-mobile"), expected: "10.0.0.0/8", actual: "gd-mobile was sent 192.0.2.2", kind: .scheduling)
        let results = [
            result(.sniResolve, "192.0.2.1", .passed, [mobile]),
            result(.sniResolve, "192.0.2.2", .failed([miss]), [mobile]),
            result(.sniResolve, nil, .errored(TransferError(kind: .resolve, message: "as bj-unicom: timed out")), [unicom]),
            result(.trustOverride, "192.0.2.1", .errored(TransferError(kind: .tls, message: "no SNI")), [mobile]),
            result(.trustOverride, "192.0.2.2", .failed([miss]), [mobile]),
        ]
        let run = RecordedRun(
            suites: [RecordedSuite(
                name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                results: results)],
            startedAt: Fixture.start, duration: .seconds(1))
        let collector = MetricsCollector(plans: run.plans, redactor: Fixture.redactor)
        run.play(into: collector)
        let text = String(decoding: MetricsExposition(
            cycle: collector.samples(of: run.result), cyclesTotal: 1, configLastReloadSuccessful: true, version: "1",
            constantLabels: try MetricLabel.parse(["vantage=sh"])
        ).render(), as: UTF8.self)
        let m = #"{plan="p",scenario="api",client="gd-mobile",isp="cm",vantage="sh"}"#
        let u = #"{plan="p",scenario="api",client="bj-unicom",isp="cu",vantage="sh"}"#
        #expect(text.contains("runner_client_edges\(m) 2\nrunner_client_edges\(u) 0\n"), "\(text)")
        // 192.0.2.1 errored under trust-override: no address passed under every strategy.
        #expect(text.contains("runner_client_edges_passing\(m) 0\nrunner_client_edges_passing\(u) 0\n"))
        #expect(text.contains("runner_scheduling_misses\(m) 2\nrunner_scheduling_misses\(u) 0\n"), "one per strategy's result")
        try await Self.expectValid(text)
    }

    /// A masked secret can make two scenario names alike: they are told apart too.
    @Test func namesMadeAlikeByMaskingAreToldApart() async throws {
        let redactor = Redactor(secrets: ["alpha", "omega"])
        let results = ["check alpha", "check omega"].map { name in
            var result = Fixture.passed
            result.scenario = name
            return result
        }
        let run = RecordedRun(
            suites: [RecordedSuite(
                name: "p", file: "p.yaml", startedAt: Fixture.start, duration: .seconds(1), hostname: "h", properties: [],
                results: results)],
            startedAt: Fixture.start, duration: .seconds(1))
        let text = try RenderedReport.metrics(run, redactor: redactor)
        let names = Exposition.samples(text).filter { $0.name == "probe_success" }.map { $0.labels[1].value }
        #expect(names == ["check ***", "check *** #2"])
        try await Self.expectValid(text)
    }

    /// `runner serve`'s path: the same samples rendered into memory with constant labels on
    /// every series, the serve's own cycle count and reload state.
    @Test func constantLabelsGoOnEverySeries() async throws {
        let run = MetricsFixture.run()
        let collector = MetricsCollector(plans: run.plans, redactor: Fixture.redactor)
        run.play(into: collector)
        let labels = try MetricLabel.parse(["vantage=sh \"telecom\"\n", "team=net=ops"])
        let text = String(decoding: MetricsExposition(
            cycle: collector.samples(of: run.result), cyclesTotal: 42, configLastReloadSuccessful: false, version: "2.0",
            constantLabels: labels
        ).render(), as: UTF8.self)
        let samples = Exposition.samples(text)
        #expect(!samples.isEmpty)
        for sample in samples {
            #expect(sample.labels.suffix(2).map(\.name) == ["vantage", "team"], "\(sample.name)")
            #expect(sample.labels.suffix(2).map(\.value) == ["sh \"telecom\"\n", "net=ops"])
        }
        #expect(text.contains(#"runner_cycles_total{vantage="sh \"telecom\"\n",team="net=ops"} 42"#))
        #expect(text.contains(#"runner_config_last_reload_successful{vantage="sh \"telecom\"\n",team="net=ops"} 0"#))
        #expect(text.contains(#"runner_build_info{version="2.0",vantage="sh \"telecom\"\n",team="net=ops"} 1"#))
        try await Self.expectValid(text)
    }

    /// A run with no result (every scenario filtered away cannot happen, an empty cycle can:
    /// serve before its first results) has the cycle's series alone.
    @Test func anEmptyCycleHasOnlyTheCycleSeries() async throws {
        let run = RecordedRun(suites: [], startedAt: Fixture.start, duration: .seconds(0))
        let text = try RenderedReport.metrics(run, redactor: Fixture.redactor)
        #expect(Set(Exposition.samples(text).map(\.name)) == [
            "runner_cycle_duration_seconds", "runner_last_cycle_timestamp_seconds", "runner_cycles_total",
            "runner_config_last_reload_successful", "runner_build_info",
        ])
        try await Self.expectValid(text)
    }

    @Test(arguments: [
        ("plan=x", "invalid label 'plan=x': 'plan' cannot be used: the runner sets it itself"),
        ("phase=x", "invalid label 'phase=x': 'phase' cannot be used: the runner sets it itself"),
        ("__name__=x", "invalid label '__name__=x': '__name__' cannot be used: names starting with `__` are Prometheus' own"),
        ("9lives=x", "invalid label '9lives=x': '9lives' cannot be used: a label name starts with a letter or `_` and has only letters, digits and `_`"),
        ("a-b=x", "invalid label 'a-b=x': 'a-b' cannot be used: a label name starts with a letter or `_` and has only letters, digits and `_`"),
        ("=x", "invalid label '=x': '' cannot be used: a label name starts with a letter or `_` and has only letters, digits and `_`"),
        ("novalue", "invalid label 'novalue': expected NAME=VALUE"),
    ])
    func anInvalidConstantLabelIsRefusedWithItsReason(assignment: String, message: String) {
        #expect(throws: MetricLabelError.self) { try MetricLabel(parsing: assignment) }
        do {
            _ = try MetricLabel(parsing: assignment)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aConstantLabelGivenTwiceIsRefused() {
        #expect(throws: MetricLabelError(label: "dc=b", reason: "'dc' is given twice")) {
            try MetricLabel.parse(["dc=a", "vantage=x", "dc=b"])
        }
        #expect((try? MetricLabel.parse(["dc=", "_x=1"]))?.map(\.name) == ["dc", "_x"])
    }

    /// Every family's name and labels are valid, no two families share a name, and their
    /// help texts need no escaping.
    @Test func theFamiliesAreWellFormed() {
        let names = MetricFamily.all.map(\.name)
        #expect(Set(names).count == names.count)
        for family in MetricFamily.all {
            #expect(family.name.wholeMatch(of: /[a-zA-Z_:][a-zA-Z0-9_:]*/) != nil)
            for label in family.labels { #expect(MetricLabel.isValidName(label), "\(label)") }
            #expect(!family.help.contains("\\") && !family.help.contains("\n"))
            // Prometheus' naming rules: a counter ends in _total, nothing else does.
            #expect(family.name.hasSuffix("_total") == (family.type == .counter), "\(family.name)")
        }
    }

    @Test(arguments: [
        (0.0, "0"), (1.0, "1"), (200.0, "200"), (1_751_327_999.0, "1751327999"), (0.0801, "0.0801"),
        (0.07339999999999999, "0.0734"), (1.1, "1.1"), (0.0000004, "0"), (0.0000005, "0.000001"), (2.5, "2.5"),
        (1_714_557_602.5, "1714557602.5"), (-0.25, "-0.25"), (-0.0000001, "0"), (Double.nan, "NaN"),
        (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (1e13, "10000000000000.0"), (1.5e300, "1.5e+300"),
    ])
    func valuesAreWrittenAsGoReadsThem(value: Double, text: String) {
        var bytes = ByteBuffer()
        PrometheusTextWriter.value(value, to: &bytes)
        #expect(String(decoding: bytes.array, as: UTF8.self) == text)
    }

    @Test func labelValuesEscapeBackslashQuoteAndNewlineOnly() {
        var bytes = ByteBuffer()
        PrometheusTextWriter.label("a", "x\\y\"z\nw\r\t\u{0}é🚀", into: &bytes, start: 0)
        PrometheusTextWriter.label("b", "", into: &bytes, start: 0)
        #expect(String(decoding: bytes.array, as: UTF8.self) == "a=\"x\\\\y\\\"z\\nw\r\t\u{0}é🚀\",b=\"\"")
    }

    /// The report is written atomically, like the others: a directory that cannot take it is
    /// known before the run.
    @Test func aReportThatCannotBeWrittenFailsAtOnce() {
        #expect(throws: ReportWriteError(path: "/nonexistent/m.prom", reason: "directory '/nonexistent' does not exist")) {
            try MetricsReport(path: "/nonexistent/m.prom", plans: [], redactor: Fixture.redactor, version: "1")
        }
    }

    /// The checks above catch what they are there for: promtool a broken line or a lint
    /// problem, `Exposition.problems` what promtool 2.42 lets pass.
    @Test func theChecksCatchBrokenExpositions() async throws {
        let header = "# HELP a_seconds A.\n# TYPE a_seconds gauge\n"
        #expect(try await Exposition.promtool(header + "a_seconds{x=\"a\nb\"} 1\n").status != 0)
        #expect(try await Exposition.promtool("# HELP b_total B.\n# TYPE b_total gauge\nb_total 1\n").status != 0)
        #expect(try await Exposition.promtool(header + "a_seconds{x=\"1\"} 1\n").status == 0)
        #expect(Exposition.problems(header + "a_seconds{x=\"1\"} 1\na_seconds{x=\"1\"} 2\n") == [
            "line 4: series written twice: a_seconds{x=\"1\"} 2",
        ])
        #expect(Exposition.problems(
            header + "a_seconds 1\n# HELP c_seconds C.\n# TYPE c_seconds gauge\nc_seconds 1\na_seconds{x=\"2\"} 1\n"
        ) == ["line 7: a_seconds's samples are split apart"])
        #expect(Exposition.problems("d_seconds 1\n") == ["line 1: d_seconds has no # HELP and # TYPE before its samples"])
    }

    /// promtool passes `text` (format and lint) and the checks it lacks find nothing.
    static func expectValid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let promtool = try await Exposition.promtool(text)
        #expect(promtool.status == 0, "promtool: \(promtool.output)", sourceLocation: sourceLocation)
        #expect(Exposition.problems(text) == [], sourceLocation: sourceLocation)
    }
}
