import RunnerVocabulary

/// Where a report renders the facts of a result's evidence, piece by piece, as the evidence
/// describes them (`HopEvidence.describe(into:)`): the one list of facts every renderer walks.
/// Nothing is formatted until a renderer asks: a fact is written straight into the report's
/// bytes, and a report that does not show evidence never calls it.
///
/// A sink decides its layout (a line per fact, a `<dt>`/`<dd>` pair) and how a value from the
/// run is made safe (redacted, escaped); structured facts whose layout differs by medium — a
/// certificate, a TLS session with its chain — are handed over whole.
public protocol EvidenceSink: ~Copyable {
    /// Starts the fact called `label`; `endFact` closes it.
    mutating func beginFact(_ label: StaticString)
    mutating func endFact()
    /// The runner's own words.
    mutating func literal(_ text: StaticString)
    /// The runner's own text (nothing in it to redact or escape).
    mutating func text(_ text: String)
    /// A value from the run (a server's, a certificate's, the plan's): redacted and escaped by the sink.
    mutating func value(_ value: String)
    mutating func number(_ value: Int)
    /// Seconds, shown as milliseconds with three decimals.
    mutating func milliseconds(_ seconds: Double)
    /// The peer certificate (nil: none), laid out as the medium shows one.
    mutating func certificate(_ certificate: CertificateSummary?)
    /// The negotiated version and cipher and the chain, laid out as the medium shows them.
    mutating func tls(_ session: TLSSession)
}

extension EvidenceSink where Self: ~Copyable {
    /// A fact whose value is one value from the run.
    public mutating func fact(_ label: StaticString, _ value: String) {
        beginFact(label)
        self.value(value)
        endFact()
    }

    /// A fact whose value is one value from the run, or `absent` when there is none.
    public mutating func fact(_ label: StaticString, _ value: String?, or absent: StaticString) {
        beginFact(label)
        if let value { self.value(value) } else { literal(absent) }
        endFact()
    }
}
