import Foundation
import RunnerResults
import RunnerVocabulary

/// A cycle's samples and the runner's own state as Prometheus text exposition (format 0.0.4):
/// `# HELP` and `# TYPE` for every family written, each family's samples together, the
/// constant labels on every series. A value: the one-shot `--metrics` writes it to a file,
/// `runner serve` renders it into memory for each scrape.
public struct MetricsExposition: Sendable {
    public var cycle: CycleSamples
    /// Cycles completed so far (1 for a one-shot run).
    public var cyclesTotal: Int
    /// Whether the plans were last loaded (or reloaded) without errors.
    public var configLastReloadSuccessful: Bool
    /// The runner's version, for `runner_build_info`.
    public var version: String
    /// Labels set on every series, after the series' own.
    public var constantLabels: [MetricLabel]
    /// How the state file's writes have gone; nil without one (no `runner_state_*` series).
    public var stateWrites: StateWriteHealth?

    public init(
        cycle: CycleSamples, cyclesTotal: Int, configLastReloadSuccessful: Bool, version: String,
        constantLabels: [MetricLabel] = [], stateWrites: StateWriteHealth? = nil
    ) {
        self.cycle = cycle
        self.cyclesTotal = cyclesTotal
        self.configLastReloadSuccessful = configLastReloadSuccessful
        self.version = version
        self.constantLabels = constantLabels
        self.stateWrites = stateWrites
    }

    /// The whole exposition, in memory.
    public func render() -> [UInt8] {
        var writer = PrometheusTextWriter(constantLabels: constantLabelList, capacity: 4096 + cycle.results.count * 2048)
        write(into: &writer) { _ in }
        return writer.buffer.array
    }

    /// The whole exposition into `output`, a few hundred kilobytes at a time.
    func write(into output: inout FileOutput) {
        var writer = PrometheusTextWriter(constantLabels: constantLabelList)
        write(into: &writer) { writer in
            if writer.buffer.count >= 256 * 1024 { writer.drain(into: &output) }
        }
        writer.drain(into: &output)
    }

    /// Writes every family into `writer`, calling `spill` after each result's samples of a
    /// family, so a caller can hand the text on as it grows.
    private func write(into writer: inout PrometheusTextWriter, spill: (inout PrometheusTextWriter) -> Void) {
        // Each result's labels, escaped once and shared by its 16 or 17 samples.
        var resultLabels = LabelBlocks(count: cycle.results.count)
        let planLabels = cycle.plans
        for result in cycle.results {
            resultLabels.add { bytes, start in
                PrometheusTextWriter.label("plan", planLabels[result.position.suite], into: &bytes, start: start)
                PrometheusTextWriter.label("scenario", result.scenario, into: &bytes, start: start)
                PrometheusTextWriter.label("strategy", result.strategy, into: &bytes, start: start)
                PrometheusTextWriter.label("ip", result.ip, into: &bytes, start: start)
                // A flow step's series also name the result it ran after.
                if !result.after.isEmpty {
                    PrometheusTextWriter.label("after", result.after, into: &bytes, start: start)
                }
            }
        }
        let results = cycle.results

        /// Writes `family` with one sample per result that has a value for it.
        func perResult(_ family: MetricFamily, _ value: (ResultSamples) -> Double?) {
            var wroteHeader = false
            for index in results.indices {
                guard let sampleValue = value(results[index]) else { continue }
                if !wroteHeader {
                    writer.header(family)
                    wroteHeader = true
                }
                resultLabels.withLabels(of: index) { writer.sample(family, labels: $0, value: sampleValue) }
                spill(&writer)
            }
        }
        func flag(_ value: Bool) -> Double { value ? 1 : 0 }

        perResult(.probeSuccess) { $0.probe.map { flag($0.success) } }
        perResult(.probeDuration) { $0.probe?.duration }
        writePhases(results, labels: resultLabels, into: &writer, spill: spill)
        perResult(.probeHTTPStatusCode) { $0.probe.map { Double($0.statusCode) } }
        perResult(.probeHTTPVersion) { $0.probe?.httpVersion }
        perResult(.probeHTTPRedirects) { $0.probe.map { Double($0.redirects) } }
        perResult(.probeSSLEarliestCertExpiry) { $0.probe?.tls?.earliestCertificateExpiry }
        writeTLSVersions(results, labels: resultLabels, into: &writer, spill: spill)
        perResult(.probeHTTPSSL) { $0.probe.map { flag($0.ssl) } }
        perResult(.probeIPProtocol) { $0.probe.map { Double($0.ipProtocol) } }
        perResult(.probeDNSLookupTime) { $0.probe?.dnsLookup }
        perResult(.probeHTTPContentLength) { $0.probe.map { Double($0.contentLength) } }
        perResult(.probeHTTPUncompressedBodyLength) { $0.probe.map { Double($0.bodyLength) } }
        writeLabelled(.probeTLSCipherInfo, results, labels: resultLabels, into: &writer, spill: spill) { probe in
            probe.tls?.cipher.map { [("cipher", $0)] }
        }
        perResult(.probeSSLLastChainExpiry) { $0.probe?.tls?.lastChainExpiry }
        writeLabelled(.probeSSLLastChainInfo, results, labels: resultLabels, into: &writer, spill: spill) { probe in
            probe.tls?.lastChainLeaf.map { leaf in
                [("fingerprint_sha256", leaf.fingerprint), ("subject", leaf.subject), ("issuer", leaf.issuer),
                 ("subjectalternative", leaf.subjectAlternative), ("serialnumber", leaf.serialNumber)]
            }
        }
        perResult(.probeGRPCStatusCode) { $0.probe?.grpc?.status.map(Double.init) }
        writeServingStatuses(results, labels: resultLabels, into: &writer, spill: spill)
        perResult(.probeGRPCSSL) { $0.probe.flatMap { probe in probe.grpc.map { _ in flag(probe.ssl) } } }
        writeGRPCPhases(results, labels: resultLabels, into: &writer, spill: spill)
        writeStatuses(results, labels: resultLabels, into: &writer, spill: spill)
        perResult(.resultFlaky) { $0.probe.map { flag($0.flaky) } }
        perResult(.resolutionFallback) { $0.probe.map { flag($0.resolutionFallback) } }
        perResult(.addressRetained) { $0.retained ? 1 : nil }
        perResult(.certificatePinMatch) { $0.probe?.pinMatch.map(flag) }

        writeLookups(into: &writer)
        spill(&writer)
        writeResolverChecks(into: &writer)
        spill(&writer)
        writeClientEdges(into: &writer)
        spill(&writer)
        writePicks(into: &writer)
        spill(&writer)
        writeApps(into: &writer)
        spill(&writer)

        writer.header(.cycleDuration)
        writer.sample(.cycleDuration, value: cycle.duration)
        writer.header(.lastCycleTimestamp)
        writer.sample(.lastCycleTimestamp, value: cycle.endedAt.timeIntervalSince1970)
        writer.header(.cyclesTotal)
        writer.sample(.cyclesTotal, value: Double(cyclesTotal))
        writer.header(.configLastReloadSuccessful)
        writer.sample(.configLastReloadSuccessful, value: flag(configLastReloadSuccessful))
        if let stateWrites {
            writer.header(.stateWriteFailures)
            writer.sample(.stateWriteFailures, value: Double(stateWrites.failuresTotal))
            if let lastSuccess = stateWrites.lastSuccess {
                writer.header(.stateLastWriteSuccess)
                writer.sample(.stateLastWriteSuccess, value: lastSuccess.timeIntervalSince1970)
            }
        }
        var build = ByteBuffer(capacity: 256)
        PrometheusTextWriter.label("version", version, into: &build, start: 0)
        build.withUnsafeBytes { labels in
            writer.header(.buildInfo)
            writer.sample(.buildInfo, labels: labels, value: 1)
        }
    }

    /// `probe_tls_version_info`: one sample per result whose final hop had a TLS session, the
    /// version as a label, as blackbox_exporter writes it.
    private func writeTLSVersions(
        _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void
    ) {
        let family = MetricFamily.probeTLSVersionInfo
        var wroteHeader = false
        for index in results.indices {
            guard let version = results[index].probe?.tls?.version else { continue }
            if !wroteHeader {
                writer.header(family)
                wroteHeader = true
            }
            labels.withLabels(of: index) { writer.sample(family, labels: $0, extra: ("version", version), value: 1) }
            spill(&writer)
        }
    }

    /// An info family (`probe_tls_cipher_info`, `probe_ssl_last_chain_info`): one sample of 1 per
    /// result for which `values` gives labels, those labels after the result's.
    private func writeLabelled(
        _ family: MetricFamily, _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void, values: (ResultSamples.Probe) -> [(String, String)]?
    ) {
        var wroteHeader = false
        var more = ByteBuffer(capacity: 512)
        for index in results.indices {
            guard let probe = results[index].probe, let pairs = values(probe) else { continue }
            if !wroteHeader {
                writer.header(family)
                wroteHeader = true
            }
            more.removeAll()
            for (name, value) in pairs { PrometheusTextWriter.label(name, value, into: &more, start: 0) }
            more.withUnsafeBytes { extra in
                labels.withLabels(of: index) { writer.sample(family, labels: $0, more: extra, value: 1) }
            }
            spill(&writer)
        }
    }

    /// A family with several samples per result: its header once, then `write`'s samples for
    /// each result `value` gives one for, after the result's labels.
    private func writeSamples<Value>(
        _ family: MetricFamily, _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void, value: (ResultSamples) -> Value?,
        write: (Value, UnsafeBufferPointer<UInt8>, inout PrometheusTextWriter) -> Void
    ) {
        var wroteHeader = false
        for index in results.indices {
            guard let sampleValue = value(results[index]) else { continue }
            if !wroteHeader {
                writer.header(family)
                wroteHeader = true
            }
            labels.withLabels(of: index) { write(sampleValue, $0, &writer) }
            spill(&writer)
        }
    }

    /// `probe_grpc_healthcheck_response`: four samples per health check answered, 1 on its
    /// serving status, as blackbox_exporter writes them.
    private func writeServingStatuses(
        _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void
    ) {
        let family = MetricFamily.probeGRPCHealthcheckResponse
        writeSamples(family, results, labels: labels, into: &writer, spill: spill, value: { $0.probe?.grpc?.serving }) {
            serving, labels, writer in
            for status in GRPCServingStatus.allCases {
                let name: StaticString = switch status {
                case .unknown: "UNKNOWN"
                case .serving: "SERVING"
                case .notServing: "NOT_SERVING"
                case .serviceUnknown: "SERVICE_UNKNOWN"
                }
                writer.sample(family, labels: labels, extra: ("serving_status", name), value: status == serving ? 1 : 0)
            }
        }
    }

    /// `probe_grpc_duration_seconds`: blackbox_exporter's two phases of a gRPC call, the
    /// address's lookup (`resolve`) and the rest (`check`: connect, TLS, the call).
    private func writeGRPCPhases(
        _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void
    ) {
        let family = MetricFamily.probeGRPCDuration
        writeSamples(family, results, labels: labels, into: &writer, spill: spill, value: { $0.probe?.grpc == nil ? nil : $0.probe?.phases }) {
            phases, labels, writer in
            writer.sample(family, labels: labels, extra: ("phase", "resolve"), value: phases.resolve)
            writer.sample(
                family, labels: labels, extra: ("phase", "check"), value: phases.connect + phases.tls + phases.processing + phases.transfer)
        }
    }

    /// `probe_http_duration_seconds`: five samples per result that ran, one per phase.
    private func writePhases(
        _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void
    ) {
        let family = MetricFamily.probeHTTPDuration
        writeSamples(family, results, labels: labels, into: &writer, spill: spill, value: { $0.probe?.phases }) { phases, labels, writer in
            writer.sample(family, labels: labels, extra: ("phase", "resolve"), value: phases.resolve)
            writer.sample(family, labels: labels, extra: ("phase", "connect"), value: phases.connect)
            writer.sample(family, labels: labels, extra: ("phase", "tls"), value: phases.tls)
            writer.sample(family, labels: labels, extra: ("phase", "processing"), value: phases.processing)
            writer.sample(family, labels: labels, extra: ("phase", "transfer"), value: phases.transfer)
        }
    }

    /// `runner_result`: four samples per result, 1 for its status and 0 for the others, so
    /// every result has the same series whatever its status (a status that changes between
    /// cycles moves a 1, it does not make series appear and go stale).
    private func writeStatuses(
        _ results: [ResultSamples], labels: borrowing LabelBlocks, into writer: inout PrometheusTextWriter,
        spill: (inout PrometheusTextWriter) -> Void
    ) {
        let family = MetricFamily.result
        guard !results.isEmpty else { return }
        writer.header(family)
        for index in results.indices {
            let status = results[index].status
            labels.withLabels(of: index) { labels in
                writer.sample(family, labels: labels, extra: ("status", "pass"), value: status == .pass ? 1 : 0)
                writer.sample(family, labels: labels, extra: ("status", "fail"), value: status == .fail ? 1 : 0)
                writer.sample(family, labels: labels, extra: ("status", "error"), value: status == .error ? 1 : 0)
                writer.sample(family, labels: labels, extra: ("status", "skipped"), value: status == .skipped ? 1 : 0)
            }
            spill(&writer)
        }
    }

    /// The three HTTPDNS families, one sample each per plan, map and host.
    private func writeLookups(into writer: inout PrometheusTextWriter) {
        guard !cycle.lookups.isEmpty else { return }
        var labels = LabelBlocks(count: cycle.lookups.count)
        for (plan, lookup) in cycle.lookups {
            labels.add { bytes, start in
                PrometheusTextWriter.label("plan", cycle.plans[plan], into: &bytes, start: start)
                PrometheusTextWriter.label("map", lookup.map, into: &bytes, start: start)
                PrometheusTextWriter.label("host", lookup.host, into: &bytes, start: start)
                // A map asked as populations: a series per client.
                if let client = lookup.client { PrometheusTextWriter.label("client", client, into: &bytes, start: start) }
            }
        }
        let families: [(MetricFamily, (HTTPDNSLookupResult) -> Double)] = [
            (.httpdnsLookupSuccess, { $0.succeeded ? 1 : 0 }),
            (.httpdnsLookupDuration, { $0.duration.inSeconds }),
            (.httpdnsAnswerAddresses, { Double($0.addressCount) }),
        ]
        for (family, value) in families {
            writer.header(family)
            for (index, entry) in cycle.lookups.enumerated() {
                labels.withLabels(of: index) { writer.sample(family, labels: $0, value: value(entry.lookup)) }
            }
        }
    }

    /// The resolver checks' families. Results that share a lookup (`ips: all`, a cached answer)
    /// share its series: each label set is written once, with the latest result's value.
    private func writeResolverChecks(into writer: inout PrometheusTextWriter) {
        var foreign: [[String]: Double] = [:]
        var foreignOrder: [[String]] = []
        var durations: [[String]: Double] = [:]
        var durationOrder: [[String]] = []
        for result in cycle.results {
            for lookup in result.dns {
                if let count = lookup.foreign {
                    let key = [cycle.plans[result.position.suite], result.scenario, result.strategy, lookup.resolver, lookup.host]
                    if foreign.updateValue(Double(count), forKey: key) == nil { foreignOrder.append(key) }
                }
                let key = [lookup.resolver, lookup.host]
                if durations.updateValue(lookup.duration, forKey: key) == nil { durationOrder.append(key) }
            }
        }
        for (family, order, values) in [
            (MetricFamily.dnsForeignAddresses, foreignOrder, foreign), (.dnsLookupDuration, durationOrder, durations),
        ] where !order.isEmpty {
            writer.header(family)
            for key in order {
                var labels = ByteBuffer(capacity: 256)
                for (name, value) in zip(family.labels, key) {
                    PrometheusTextWriter.label(name, value, into: &labels, start: 0)
                }
                labels.withUnsafeBytes { writer.sample(family, labels: $0, value: values[key] ?? 0) }
            }
        }
    }

    /// `runner_app_pins_expiry_timestamp_seconds` and `runner_app_policy_problems`, when any
    /// result was checked as an app.
    private func writeApps(into writer: inout PrometheusTextWriter) {
        let apps = cycle.apps
        guard !apps.isEmpty else { return }
        var labels = ByteBuffer(capacity: 256)
        if !apps.expiries.isEmpty {
            writer.header(.appPinsExpiry)
            for (key, seconds) in apps.expiries {
                labels.removeAll()
                PrometheusTextWriter.label("plan", cycle.plans[key.plan], into: &labels, start: 0)
                PrometheusTextWriter.label("app", key.app, into: &labels, start: 0)
                PrometheusTextWriter.label("platform", key.platform, into: &labels, start: 0)
                PrometheusTextWriter.label("host", key.host, into: &labels, start: 0)
                labels.withUnsafeBytes { writer.sample(.appPinsExpiry, labels: $0, value: seconds) }
            }
        }
        if !apps.problems.isEmpty {
            writer.header(.appPolicyProblems)
            for (key, count) in apps.problems {
                labels.removeAll()
                PrometheusTextWriter.label("plan", cycle.plans[key.plan], into: &labels, start: 0)
                PrometheusTextWriter.label("app", key.app, into: &labels, start: 0)
                PrometheusTextWriter.label("host", key.host, into: &labels, start: 0)
                PrometheusTextWriter.label("strategy", key.strategy, into: &labels, start: 0)
                PrometheusTextWriter.label("kind", key.kind, into: &labels, start: 0)
                labels.withUnsafeBytes { writer.sample(.appPolicyProblems, labels: $0, value: Double(count)) }
            }
        }
    }

    /// The client families: per plan, scenario and population, the addresses it was given, how
    /// many passed (every result on the address passed), and its scheduling misses. Its own
    /// labels follow, but for a name a constant label takes (the constant one stays).
    private func writeClientEdges(into writer: inout PrometheusTextWriter) {
        var tally = ClientEdgeTally()
        for result in cycle.results {
            for (index, client) in result.clients.enumerated() {
                tally.add(
                    client: client.name, labels: client.labels, index: index, scenario: result.scenario, at: result.position,
                    address: result.ip.isEmpty ? nil : result.ip, passed: result.status == .pass, reason: "",
                    misses: client.misses)
            }
        }
        guard !tally.isEmpty else { return }
        let populations = tally.inPlanOrder()
        let constant = Set(constantLabels.map(\.name))
        var labels = LabelBlocks(count: populations.count)
        for (key, edges) in populations {
            labels.add { bytes, start in
                PrometheusTextWriter.label("plan", cycle.plans[key.suite], into: &bytes, start: start)
                PrometheusTextWriter.label("scenario", key.scenario, into: &bytes, start: start)
                PrometheusTextWriter.label("client", key.client, into: &bytes, start: start)
                for label in edges.labels where !constant.contains(label.name) {
                    PrometheusTextWriter.label(label.name, label.value, into: &bytes, start: start)
                }
            }
        }
        let families: [(MetricFamily, (ClientEdgeTally.Edges) -> Double)] = [
            (.clientEdges, { Double($0.addresses.count) }),
            (.clientEdgesPassing, { Double($0.passing) }),
            (.schedulingMisses, { Double($0.misses) }),
        ]
        for (family, value) in families {
            writer.header(family)
            for (index, population) in populations.enumerated() {
                labels.withLabels(of: index) { writer.sample(family, labels: $0, value: value(population.edges)) }
            }
        }
    }

    /// `runner_app_pick` and `runner_app_pick_success`: per plan, map, host, population and
    /// address its SDK picks, one series for the results that share it.
    private func writePicks(into writer: inout PrometheusTextWriter) {
        let picks = cycle.picks
        guard !picks.isEmpty else { return }
        var labels = LabelBlocks(count: picks.count)
        for pick in picks {
            labels.add { bytes, start in
                PrometheusTextWriter.label("plan", cycle.plans[pick.plan], into: &bytes, start: start)
                PrometheusTextWriter.label("map", pick.map, into: &bytes, start: start)
                PrometheusTextWriter.label("host", pick.host, into: &bytes, start: start)
                PrometheusTextWriter.label("client", pick.client, into: &bytes, start: start)
                PrometheusTextWriter.label("ip", pick.ip, into: &bytes, start: start)
            }
        }
        writer.header(.appPick)
        for index in picks.indices {
            labels.withLabels(of: index) { writer.sample(.appPick, labels: $0, value: 1) }
        }
        guard picks.contains(where: { $0.success != nil }) else { return }
        writer.header(.appPickSuccess)
        for (index, pick) in picks.enumerated() {
            guard let success = pick.success else { continue }
            labels.withLabels(of: index) { writer.sample(.appPickSuccess, labels: $0, value: success ? 1 : 0) }
        }
    }

    /// The constant labels as a label list, escaped.
    private var constantLabelList: [UInt8] {
        var bytes = ByteBuffer(capacity: 256)
        for label in constantLabels { PrometheusTextWriter.label(label.name, label.value, into: &bytes, start: 0) }
        return bytes.array
    }
}
