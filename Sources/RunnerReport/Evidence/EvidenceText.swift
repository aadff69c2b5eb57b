import RunnerResults
import RunnerVocabulary

/// The evidence of one result as plain lines: the single rendering behind JUnit `<system-out>`
/// and the verbose console, so both always tell the same story.
enum EvidenceText {
    /// The line every report shows first when verification was skipped.
    static let insecureLine = "INSECURE: certificate verification was skipped (insecure: true)"

    /// Redacted, one-line-per-fact rendering of `result`'s evidence (no trailing newline on any
    /// line); a result that did not pass also shows each hop's curl line.
    static func lines(for result: borrowing ScenarioResult, redactor: Redactor, showingChain: Bool = true) -> [String] {
        var lines = Lines(
            redactor: redactor, into: ByteBuffer(capacity: 1024), keepingLineEnds: true, escapingXML: false,
            reproducing: !result.outcome.isPassed, showingChain: showingChain)
        render(result, into: &lines)
        return lines.strings()
    }

    /// The same lines, each followed by a newline, appended to `bytes` (written as bytes,
    /// without a `String` per line).
    static func write(
        _ result: borrowing ScenarioResult, redactor: Redactor, showingChain: Bool = true, repeatedParts: RepeatedParts? = nil,
        to bytes: inout ByteBuffer
    ) {
        var lines = Lines(
            redactor: redactor, into: bytes, keepingLineEnds: false, escapingXML: false, reproducing: !result.outcome.isPassed,
            showingChain: showingChain, repeatedParts: repeatedParts)
        render(result, into: &lines)
        bytes = lines.bytes
    }

    /// The same lines, each followed by a newline, escaped as XML character data and appended
    /// to `bytes` (JUnit's `<system-out>`). Without secrets, only the values are escaped, as
    /// they are written (the runner's own words need none); with secrets each line is redacted
    /// whole first, so the text is escaped once written. Without `showingChain`, the TLS line
    /// stands without the chain's lines (JUnit, for a passing result, unless `--verbose`).
    /// `repeatedParts`: the report's renderings of a connection's certificate and TLS session,
    /// written again for the results that share them.
    static func writeXMLText(
        _ result: borrowing ScenarioResult, redactor: Redactor, showingChain: Bool = true, repeatedParts: RepeatedParts? = nil,
        to bytes: inout ByteBuffer
    ) {
        guard redactor.isEmpty else {
            var plain = ByteBuffer(capacity: 1024)
            write(result, redactor: redactor, showingChain: showingChain, repeatedParts: repeatedParts, to: &plain)
            return plain.withUnsafeBytes { MarkupEscaper.xmlText.escape($0, to: &bytes) }
        }
        var lines = Lines(
            redactor: redactor, into: bytes, keepingLineEnds: false, escapingXML: true, reproducing: !result.outcome.isPassed,
            showingChain: showingChain, repeatedParts: repeatedParts)
        render(result, into: &lines)
        bytes = lines.bytes
    }

    private static func render(_ result: borrowing ScenarioResult, into out: inout Lines) {
        // Each value is redacted first (a secret may contain characters that escaping changes),
        // then its controls escaped so that each fact stays on its own line (`value`).
        if result.evidence.insecure {
            out.text(insecureLine)
            out.endLine()
        }
        result.describeEvidence(into: &out)
    }

    /// Lines written as bytes: each composed piece by piece, then (as a secret can also span
    /// two values joined on it, an IP and a port say) redacted once more as a whole. With
    /// `escapingXML` (no secrets only: a line is not redacted again), values are escaped as
    /// XML text as they are written; the runner's own words and numbers need no escaping.
    fileprivate struct Lines: ~Copyable {
        let redactor: Redactor
        let escapingXML: Bool
        /// Each hop also shows its curl line (a result that did not pass).
        let reproducing: Bool
        /// The TLS line is followed by a line per certificate of the chain.
        let showingChain: Bool
        /// The report's renderings of parts that repeat across results (nil: none kept).
        let repeatedParts: RepeatedParts?
        /// Facts of a hop are indented under the hop's line.
        var inHop = false
        var bytes: ByteBuffer
        /// Where the line being written starts.
        private var lineStart: Int
        /// Where each line written ends (before its newline), for `strings()`; nil when they
        /// are not wanted.
        private var lineEnds: [Int]?

        init(
            redactor: Redactor, into bytes: consuming ByteBuffer, keepingLineEnds: Bool, escapingXML: Bool, reproducing: Bool,
            showingChain: Bool, repeatedParts: RepeatedParts? = nil
        ) {
            self.redactor = redactor
            self.escapingXML = escapingXML
            self.reproducing = reproducing
            self.showingChain = showingChain
            self.repeatedParts = repeatedParts
            lineStart = bytes.count
            self.bytes = bytes
            lineEnds = keepingLineEnds ? [] : nil
        }

        mutating func literal(_ text: StaticString) {
            bytes.append(text)
        }

        /// Text of the runner's own, shown as it is (nothing in it to escape).
        mutating func text(_ text: String) {
            bytes.append(utf8: text)
        }

        mutating func number(_ value: Int) {
            ByteText.decimal(value, to: &bytes)
        }

        mutating func milliseconds(_ duration: Duration) {
            Format.milliseconds(duration, to: &bytes)
        }

        /// A value from the run (a server's, a certificate's, the plan's): redacted, its
        /// controls shown as escapes.
        mutating func value(_ value: String) {
            guard escapingXML else { return PlainText.appendSingleLine(redactor.redact(value), to: &bytes) }
            PlainText.withSingleLine(redactor.redact(value)) { MarkupEscaper.xmlText.escape($0, to: &bytes) }
        }

        mutating func value(_ value: String?, or absent: StaticString) {
            guard let value else { return literal(absent) }
            self.value(value)
        }

        mutating func endLine() {
            if !redactor.isEmpty {
                let start = lineStart
                let line = bytes.withUnsafeBytes { String(decoding: $0[start...], as: UTF8.self) }
                let redacted = redactor.redact(line)
                if redacted != line {
                    bytes.truncate(to: start)
                    bytes.append(utf8: redacted)
                }
            }
            lineEnds?.append(bytes.count)
            bytes.append(UInt8(ascii: "\n"))
            lineStart = bytes.count
        }

        /// Lines for a part that repeats across results, starting a line: what `render` wrote
        /// for an equal part in this layout, when the report kept it, or rendered now (and kept).
        mutating func repeating<Part: Equatable>(_ part: Part, _ render: (inout Lines, Part) -> Void) {
            guard let repeatedParts, lineEnds == nil else { return render(&self, part) }
            let layout = (escapingXML ? 1 : 0) | (showingChain ? 2 : 0)
            let secrets = redactor.secretsAdded
            if repeatedParts.writeAgain(part, layout: layout, secrets: secrets, to: &bytes) {
                lineStart = bytes.count
                return
            }
            let start = bytes.count
            render(&self, part)
            repeatedParts.keep(part, layout: layout, secrets: secrets, from: start, of: bytes)
        }

        /// The lines written, as strings without their newlines.
        func strings() -> [String] {
            var start = 0
            return (lineEnds ?? []).map { end in
                defer { start = end + 1 }
                return bytes.withUnsafeBytes { String(decoding: $0[start..<end], as: UTF8.self) }
            }
        }
    }
}

/// The console's and JUnit's layout of a result's facts: a line each, a hop's indented under
/// the hop's line, the certificate on one line (its names on the next), a line per chain
/// certificate, a DNS lookup on a line and each of its questions on one more.
extension EvidenceText.Lines: EvidenceSink {
    mutating func beginFact(_ label: StaticString) {
        if inHop { literal("  ") }
        literal(label)
        literal(": ")
    }

    mutating func endFact() {
        endLine()
    }

    /// `certificate: subject …; issuer …; expires …`, then `certificate names: …`.
    mutating func certificate(_ certificate: CertificateSummary?) {
        guard let certificate else {
            literal("  certificate: none")
            return endLine()
        }
        repeating(certificate) { lines, certificate in
            lines.literal("  certificate: subject ")
            lines.value(certificate.subject)
            lines.literal("; issuer ")
            lines.value(certificate.issuer)
            lines.literal("; expires ")
            if let notAfter = certificate.notAfter { lines.text(Format.timestamp(notAfter)) } else { lines.literal("unknown") }
            lines.endLine()
            guard !certificate.subjectAltNames.isEmpty else { return }
            lines.literal("  certificate names: ")
            for (index, name) in certificate.subjectAltNames.enumerated() {
                if index > 0 { lines.literal(", ") }
                lines.value(name)
            }
            lines.endLine()
        }
    }

    /// `hop N: METHOD URL`.
    mutating func beginHop(_ number: Int, _ hop: HopEvidence) {
        literal("hop ")
        self.number(number)
        literal(": ")
        value(hop.method)
        literal(" ")
        value(hop.originalURL)
        endLine()
        inHop = true
    }

    mutating func endHop(_ hop: HopEvidence, of evidence: Evidence) {
        if reproducing {
            literal("  curl: ")
            value(CurlCommand.line(hop, of: evidence, redactor: redactor))
            endLine()
        }
        inHop = false
    }

    mutating func beginRemark(_ kind: EvidenceRemark) {
        guard let label = kind.label else { return }
        literal(label)
        literal(": ")
    }

    mutating func endRemark() {
        endLine()
    }

    /// `tls: TLS 1.3, CIPHER`, then a line per chain certificate, leaf first:
    /// `chain 0: SUBJECT; EC 256; ecdsa-with-SHA256; sha256/…`.
    mutating func tls(_ tls: TLSSession) {
        repeating(tls) { lines, tls in
            lines.literal("  tls: ")
            lines.text(tls.version?.displayName ?? "unknown version")
            lines.literal(", ")
            lines.value(tls.cipher)
            if tls.chainIsUnverified { lines.literal("; chain as presented (verification was off)") }
            lines.endLine()
            guard lines.showingChain else { return }
            for (index, certificate) in tls.chain.enumerated() {
                lines.literal("  chain ")
                lines.number(index)
                lines.literal(": ")
                lines.value(certificate.subject)
                lines.literal("; ")
                lines.value(certificate.keyType)
                lines.literal(" ")
                lines.number(certificate.keyBits)
                lines.literal("; ")
                lines.value(certificate.signature)
                lines.literal("; ")
                lines.text(certificate.pin)
                lines.endLine()
            }
        }
    }

    /// What a resolver answered for one host: a line for the lookup, one per question, and the
    /// foreign addresses when the check found some.
    mutating func dnsLookup(_ lookup: DNSLookupEvidence) {
        literal("dns: ")
        value(lookup.host)
        literal(" from resolver ")
        value(lookup.resolver)
        if let within = lookup.within {
            literal(lookup.foreign.isEmpty ? ", within " : ", NOT within ")
            value(within.map { "'\($0)'" }.joined(separator: ", "))
        }
        endLine()
        for question in lookup.questions {
            literal("  ")
            value(question.type)
            literal(": ")
            value(question.rcode, or: "no rcode")
            if let problem = question.problem {
                literal(", ")
                value(problem)
            }
            if !question.aliases.isEmpty {
                literal(", cname ")
                value(question.aliases.joined(separator: " -> "))
            }
            if !question.addresses.isEmpty {
                literal(", ")
                value(question.addresses.joined(separator: " "))
            }
            if let ttl = question.ttl {
                literal(", ttl ")
                number(ttl)
            }
            literal(", ")
            text(Format.milliseconds(question.duration))
            literal(" ms")
            endLine()
        }
        if !lookup.foreign.isEmpty {
            literal("  foreign: ")
            value(lookup.foreign.joined(separator: " "))
            endLine()
        }
    }
}
