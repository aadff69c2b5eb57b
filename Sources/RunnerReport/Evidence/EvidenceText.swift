import RunnerResults
import RunnerVocabulary

/// The evidence of one result as plain lines: the single rendering behind JUnit `<system-out>`
/// and the verbose console, so both always tell the same story.
enum EvidenceText {
    /// The line every report shows first when verification was skipped.
    static let insecureLine = "INSECURE: certificate verification was skipped (insecure: true)"

    /// Redacted, one-line-per-fact rendering of `evidence` (no trailing newline on any line);
    /// with `reproducing`, each hop also shows its curl line (a result that did not pass).
    static func lines(for evidence: Evidence, redactor: Redactor, reproducing: Bool = false) -> [String] {
        var lines = Lines(redactor: redactor, into: ByteBuffer(capacity: 1024), keepingLineEnds: true, escapingXML: false)
        render(evidence, reproducing: reproducing, into: &lines)
        return lines.strings()
    }

    /// The same lines, each followed by a newline, appended to `bytes` (JUnit's `<system-out>`:
    /// written as bytes, without a `String` per line).
    static func write(_ evidence: Evidence, redactor: Redactor, reproducing: Bool, to bytes: inout ByteBuffer) {
        var lines = Lines(redactor: redactor, into: bytes, keepingLineEnds: false, escapingXML: false)
        render(evidence, reproducing: reproducing, into: &lines)
        bytes = lines.bytes
    }

    /// The same lines, each followed by a newline, escaped as XML character data and appended
    /// to `bytes` (JUnit's `<system-out>`). Without secrets, only the values are escaped, as
    /// they are written (the runner's own words need none); with secrets each line is redacted
    /// whole first, so the text is escaped once written.
    static func writeXMLText(_ evidence: Evidence, redactor: Redactor, reproducing: Bool, to bytes: inout ByteBuffer) {
        guard redactor.isEmpty else {
            var plain = ByteBuffer(capacity: 1024)
            write(evidence, redactor: redactor, reproducing: reproducing, to: &plain)
            return plain.withUnsafeBytes { XMLWriter.escape($0, attribute: false, to: &bytes) }
        }
        var lines = Lines(redactor: redactor, into: bytes, keepingLineEnds: false, escapingXML: true)
        render(evidence, reproducing: reproducing, into: &lines)
        bytes = lines.bytes
    }

    private static func render(_ evidence: Evidence, reproducing: Bool, into out: inout Lines) {
        // Each value is redacted first (a secret may contain characters that escaping changes),
        // then its controls escaped so that each fact stays on its own line (`value`).
        if evidence.insecure {
            out.text(insecureLine)
            out.endLine()
        }
        out.literal("strategy: ")
        out.value(evidence.strategy.rawValue)
        out.endLine()
        out.literal("ip source: ")
        out.value(evidence.ipSource)
        out.endLine()
        for lookup in evidence.dns {
            dnsLines(lookup, into: &out)
        }
        if let notChecked = evidence.dnsNotChecked {
            out.literal("dns: ")
            out.value(notChecked)
            out.endLine()
        }
        if evidence.hops.isEmpty {
            out.literal("no request was sent")
            out.endLine()
        }
        for (index, hop) in evidence.hops.enumerated() {
            out.literal("hop ")
            out.number(index + 1)
            out.literal(": ")
            out.value(hop.method)
            out.literal(" ")
            out.value(hop.originalURL)
            out.endLine()
            hop.describe(into: &out)
            if reproducing {
                out.literal("  curl: ")
                out.value(CurlCommand.line(hop, of: evidence, redactor: out.redactor))
                out.endLine()
            }
        }
        for capture in evidence.captured {
            out.literal("captured: ")
            out.value(capture.name)
            if let value = capture.value {
                out.literal(" = ")
                out.value(value)
            } else {
                out.literal(" (secret)")
            }
            out.endLine()
        }
        for note in evidence.notes {
            out.literal("note: ")
            out.value(note)
            out.endLine()
        }
    }

    /// What a resolver answered for one host: a line for the lookup, one per question, and the
    /// foreign addresses when the check found some.
    private static func dnsLines(_ lookup: DNSLookupEvidence, into out: inout Lines) {
        out.literal("dns: ")
        out.value(lookup.host)
        out.literal(" from resolver ")
        out.value(lookup.resolver)
        if let within = lookup.within {
            out.literal(lookup.foreign.isEmpty ? ", within " : ", NOT within ")
            out.value(within.map { "'\($0)'" }.joined(separator: ", "))
        }
        out.endLine()
        for question in lookup.questions {
            out.literal("  ")
            out.value(question.type)
            out.literal(": ")
            out.value(question.rcode, or: "no rcode")
            if let problem = question.problem {
                out.literal(", ")
                out.value(problem)
            }
            if !question.aliases.isEmpty {
                out.literal(", cname ")
                out.value(question.aliases.joined(separator: " -> "))
            }
            if !question.addresses.isEmpty {
                out.literal(", ")
                out.value(question.addresses.joined(separator: " "))
            }
            if let ttl = question.ttl {
                out.literal(", ttl ")
                out.number(ttl)
            }
            out.literal(", ")
            out.text(Format.milliseconds(question.duration))
            out.literal(" ms")
            out.endLine()
        }
        if !lookup.foreign.isEmpty {
            out.literal("  foreign: ")
            out.value(lookup.foreign.joined(separator: " "))
            out.endLine()
        }
    }

    /// Lines written as bytes: each composed piece by piece, then (as a secret can also span
    /// two values joined on it, an IP and a port say) redacted once more as a whole. With
    /// `escapingXML` (no secrets only: a line is not redacted again), values are escaped as
    /// XML text as they are written; the runner's own words and numbers need no escaping.
    fileprivate struct Lines: ~Copyable {
        let redactor: Redactor
        let escapingXML: Bool
        var bytes: ByteBuffer
        /// Where the line being written starts.
        private var lineStart: Int
        /// Where each line written ends (before its newline), for `strings()`; nil when they
        /// are not wanted.
        private var lineEnds: [Int]?

        init(redactor: Redactor, into bytes: consuming ByteBuffer, keepingLineEnds: Bool, escapingXML: Bool) {
            self.redactor = redactor
            self.escapingXML = escapingXML
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

        mutating func milliseconds(_ seconds: Double) {
            Format.milliseconds(seconds, to: &bytes)
        }

        /// A value from the run (a server's, a certificate's, the plan's): redacted, its
        /// controls shown as escapes.
        mutating func value(_ value: String) {
            guard escapingXML else { return PlainText.appendSingleLine(redactor.redact(value), to: &bytes) }
            let shown = PlainText.singleLine(redactor.redact(value))
            ByteText.withUTF8(shown) { XMLWriter.escape($0, attribute: false, to: &bytes) }
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

/// The console's and JUnit's layout of a hop's facts: a line each, indented under the hop's,
/// the certificate on one line (its names on the next), a line per chain certificate.
extension EvidenceText.Lines: EvidenceSink {
    mutating func beginFact(_ label: StaticString) {
        literal("  ")
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
        literal("  certificate: subject ")
        value(certificate.subject)
        literal("; issuer ")
        value(certificate.issuer)
        literal("; expires ")
        if let notAfter = certificate.notAfter { text(Format.timestamp(notAfter)) } else { literal("unknown") }
        endLine()
        guard !certificate.subjectAltNames.isEmpty else { return }
        literal("  certificate names: ")
        for (index, name) in certificate.subjectAltNames.enumerated() {
            if index > 0 { literal(", ") }
            value(name)
        }
        endLine()
    }

    /// `tls: TLS 1.3, CIPHER`, then a line per chain certificate, leaf first:
    /// `chain 0: SUBJECT; EC 256; ecdsa-with-SHA256; sha256/…`.
    mutating func tls(_ tls: TLSSession) {
        literal("  tls: ")
        text(tls.version?.displayName ?? "unknown version")
        literal(", ")
        value(tls.cipher)
        if tls.chainIsUnverified { literal("; chain as presented (verification was off)") }
        endLine()
        for (index, certificate) in tls.chain.enumerated() {
            literal("  chain ")
            number(index)
            literal(": ")
            value(certificate.subject)
            literal("; ")
            value(certificate.keyType)
            literal(" ")
            number(certificate.keyBits)
            literal("; ")
            value(certificate.signature)
            literal("; ")
            text(certificate.pin)
            endLine()
        }
    }
}
