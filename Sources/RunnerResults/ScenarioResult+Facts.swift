import RunnerVocabulary

extension ScenarioResult {
    /// The result's evidence, in the order every report shows it (the console and JUnit's lines,
    /// the HTML report's lists): the one place a fact of the whole result is declared for them;
    /// each hop's own facts are `HopEvidence.describe(into:)`. The insecure warning is not here:
    /// each report puts it first, above the verdict.
    public func describeEvidence<Sink: EvidenceSink & ~Copyable>(into sink: inout Sink) {
        sink.fact("strategy", evidence.strategy.rawValue)
        sink.fact("ip source", evidence.ipSource)
        if !tags.isEmpty { sink.fact("tags", list: tags) }
        for lookup in evidence.dns { sink.dnsLookup(lookup) }
        if let reason = evidence.dnsNotChecked {
            sink.beginRemark(.dnsNotChecked)
            sink.value(reason)
            sink.endRemark()
        }
        if evidence.hops.isEmpty {
            sink.beginRemark(.noRequest)
            sink.literal("no request was sent")
            sink.endRemark()
        }
        for (index, hop) in evidence.hops.enumerated() {
            sink.beginHop(index + 1, hop)
            hop.describe(into: &sink)
            sink.endHop(hop, of: evidence)
        }
        for capture in evidence.captured {
            sink.beginRemark(.captured)
            sink.value(capture.name)
            if let value = capture.value {
                sink.literal(" = ")
                sink.value(value)
            } else {
                sink.literal(" (secret)")
            }
            sink.endRemark()
        }
        for note in evidence.notes {
            sink.beginRemark(.note)
            sink.value(note)
            sink.endRemark()
        }
    }
}
