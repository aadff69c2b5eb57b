import RunnerVocabulary

/// Where a report renders the facts of a result's evidence, piece by piece, as the result
/// describes them (`ScenarioResult.describeEvidence(into:)`, and for each hop
/// `HopEvidence.describe(into:)`): the one list of facts every renderer walks.
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
    /// A duration, shown as milliseconds with three decimals.
    mutating func milliseconds(_ duration: Duration)
    /// The peer certificate (nil: none), laid out as the medium shows one.
    mutating func certificate(_ certificate: CertificateSummary?)
    /// The negotiated version and cipher and the chain, laid out as the medium shows them.
    mutating func tls(_ session: TLSSession)
    /// What a resolver answered for one host, laid out as the medium shows a lookup.
    mutating func dnsLookup(_ lookup: DNSLookupEvidence)
    /// Starts hop `number` (from 1): the request's method and URL head its facts.
    mutating func beginHop(_ number: Int, _ hop: HopEvidence)
    /// Ends a hop's facts; a sink that reproduces requests adds the hop's curl line here.
    mutating func endHop(_ hop: HopEvidence, of evidence: Evidence)
    /// Starts a remark: a line of its own after the result's facts (`endRemark` closes it).
    mutating func beginRemark(_ kind: EvidenceRemark)
    mutating func endRemark()
}

/// The kinds of line a result's evidence shows apart from its facts: each medium sets them off
/// in its own way (the HTML report: a paragraph, an item of the notes list).
public enum EvidenceRemark: Sendable {
    /// Why `expect.dns` was not checked.
    case dnsNotChecked
    /// The result sent no request at all.
    case noRequest
    /// A value the result captured for the scenarios after it.
    case captured
    /// Anything else worth knowing (a fallback used, a body cut at `max_body`, …).
    case note

    /// The word that heads the remark in a line of text; nil when it stands alone.
    public var label: StaticString? {
        switch self {
        case .dnsNotChecked: "dns"
        case .noRequest: nil
        case .captured: "captured"
        case .note: "note"
        }
    }
}

extension EvidenceSink where Self: ~Copyable {
    /// A fact whose value is one value from the run.
    @inlinable
    public mutating func fact(_ label: StaticString, _ value: String) {
        beginFact(label)
        self.value(value)
        endFact()
    }

    /// A fact whose value is a list of values from the run, joined by `, `.
    @inlinable
    public mutating func fact(_ label: StaticString, list values: [String]) {
        beginFact(label)
        for (index, value) in values.enumerated() {
            if index > 0 { literal(", ") }
            self.value(value)
        }
        endFact()
    }

    /// A fact whose value is one value from the run, or `absent` when there is none.
    @inlinable
    public mutating func fact(_ label: StaticString, _ value: String?, or absent: StaticString) {
        beginFact(label)
        if let value { self.value(value) } else { literal(absent) }
        endFact()
    }
}
