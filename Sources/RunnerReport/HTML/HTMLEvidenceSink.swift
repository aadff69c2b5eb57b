import RunnerResults
import RunnerVocabulary

/// The HTML report's layout of a result's evidence: its facts a `<dt>`/`<dd>` pair each in a
/// definition list (a hop's in the hop's own), values redacted and escaped, the chain as a
/// table, a DNS lookup as a table of its questions, notes and captured values as a list.
struct HTMLEvidenceSink: ~Copyable, EvidenceSink {
    private var html: HTMLWriter
    /// Each hop also shows its curl line (a result that did not pass).
    private let reproducing: Bool
    /// The list the result's facts or remarks are being written into, if one is open.
    private var openList: List?
    private var inHop = false

    private enum List {
        case facts, notes

        var closing: StaticString {
            switch self {
            case .facts: "</dl>\n"
            case .notes: "</ul>\n"
            }
        }
    }

    /// Writes into `html`, which the sink owns until `finish()` hands it back.
    init(writing html: consuming HTMLWriter, reproducing: Bool) {
        self.html = html
        self.reproducing = reproducing
    }

    /// Closes what is open and hands the writer back.
    consuming func finish() -> HTMLWriter {
        closeList()
        return html
    }

    private mutating func closeList() {
        if let openList { html.raw(openList.closing) }
        openList = nil
    }

    private mutating func open(_ list: List) {
        guard openList != list else { return }
        closeList()
        switch list {
        case .facts: html.raw("<dl class=\"facts\">")
        case .notes: html.raw("<ul class=\"notes\">\n")
        }
        openList = list
    }

    mutating func beginFact(_ label: StaticString) {
        if !inHop { open(.facts) }
        raw("<dt>")
        raw(label)
        raw("</dt><dd>")
    }

    mutating func endFact() {
        raw("</dd>")
    }

    mutating func literal(_ text: StaticString) {
        html.raw(text)
    }

    private mutating func raw(_ markup: StaticString) {
        html.raw(markup)
    }

    mutating func text(_ text: String) {
        html.text(text)
    }

    mutating func value(_ value: String) {
        html.value(value)
    }

    private mutating func value(_ value: String?, or absent: StaticString) {
        html.value(value, or: absent)
    }

    mutating func number(_ value: Int) {
        html.number(value)
    }

    mutating func milliseconds(_ duration: Duration) {
        html.milliseconds(duration)
    }

    /// `<h4>hop N (redirect): METHOD URL</h4>`, then the hop's own list.
    mutating func beginHop(_ number: Int, _ hop: HopEvidence) {
        closeList()
        raw("<div class=\"hop\"><h4>hop ")
        self.number(number)
        if number > 1 { raw(" (redirect)") }
        raw(": ")
        value(hop.method)
        raw(" ")
        value(hop.originalURL)
        raw("</h4>\n<dl>")
        inHop = true
    }

    mutating func endHop(_ hop: HopEvidence, of evidence: Evidence) {
        if reproducing {
            raw("<dt>curl</dt><dd><code class=\"curl\">")
            value(CurlCommand.line(hop, of: evidence, redactor: html.redactor))
            raw("</code></dd>")
        }
        raw("</dl></div>\n")
        inHop = false
    }

    /// A paragraph for why DNS was not checked and for a result that sent nothing; an item of
    /// the notes list for a note or a captured value.
    mutating func beginRemark(_ kind: EvidenceRemark) {
        switch kind {
        case .dnsNotChecked:
            closeList()
            raw("<p class=\"dns-unchecked\">")
        case .noRequest:
            closeList()
            raw("<p class=\"nohop\">")
        case .captured:
            open(.notes)
            raw("<li>captured: ")
        case .note:
            open(.notes)
            raw("<li>note: ")
        }
    }

    mutating func endRemark() {
        raw(openList == .notes ? "</li>\n" : "</p>\n")
    }

    /// Subject, issuer and expiry as three facts, then the names when there are any.
    mutating func certificate(_ certificate: CertificateSummary?) {
        guard let certificate else { return raw("<dt>certificate</dt><dd>none</dd>") }
        fact("certificate", certificate.subject)
        fact("issuer", certificate.issuer)
        beginFact("expires")
        if let notAfter = certificate.notAfter { text(Format.timestamp(notAfter)) } else { raw("unknown") }
        endFact()
        guard !certificate.subjectAltNames.isEmpty else { return }
        beginFact("names")
        for (index, name) in certificate.subjectAltNames.enumerated() {
            if index > 0 { raw(", ") }
            value(name)
        }
        endFact()
    }

    /// The negotiated version and cipher, and the chain (leaf first) as a table: each
    /// certificate's subject, key, signature and pin.
    mutating func tls(_ tls: TLSSession) {
        beginFact("tls")
        text(tls.version?.displayName ?? "unknown version")
        raw(", ")
        value(tls.cipher)
        if tls.chainIsUnverified { raw("; chain as presented (verification was off)") }
        raw("<table class=\"chain\"><tr><th>#</th><th>subject</th><th>key</th><th>signature</th><th>pin</th></tr>")
        for (index, certificate) in tls.chain.enumerated() {
            raw("<tr><td>")
            number(index)
            raw("</td><td>")
            value(certificate.subject)
            raw("</td><td>")
            value(certificate.keyType)
            raw(" ")
            number(certificate.keyBits)
            raw("</td><td>")
            value(certificate.signature)
            raw("</td><td><code>")
            text(certificate.pin)
            raw("</code></td></tr>")
        }
        raw("</table>")
        endFact()
    }

    /// What a resolver answered for one host: each question's answer, a foreign address
    /// marked where it appears and listed again under the table.
    mutating func dnsLookup(_ lookup: DNSLookupEvidence) {
        closeList()
        raw("<div class=\"dns\"><h4>dns: ")
        value(lookup.host)
        raw(" from resolver ")
        value(lookup.resolver)
        if let within = lookup.within {
            raw(lookup.foreign.isEmpty ? ", within " : ", <strong class=\"foreign\">not within</strong> ")
            value(within.map { "'\($0)'" }.joined(separator: ", "))
        }
        raw("</h4><table class=\"dns-questions\"><tr><th>type</th><th>rcode</th><th>addresses</th><th>ttl</th><th>cname</th><th>ms</th></tr>\n")
        for question in lookup.questions {
            raw("<tr><td>")
            value(question.type)
            raw("</td><td>")
            value(question.rcode, or: "-")
            raw("</td><td>")
            if let problem = question.problem { value(problem) }
            for (index, address) in question.addresses.enumerated() {
                if index > 0 { raw(" ") }
                if lookup.foreign.contains(address) {
                    raw("<mark class=\"foreign\" title=\"no map of expect.dns.within lists it\">")
                    value(address)
                    raw("</mark>")
                } else {
                    value(address)
                }
            }
            raw("</td><td>")
            if let ttl = question.ttl { number(ttl) } else { raw("-") }
            raw("</td><td>")
            value(question.aliases.joined(separator: " → "))
            raw("</td><td class=\"ms\">")
            milliseconds(question.duration)
            raw("</td></tr>\n")
        }
        raw("</table>")
        if !lookup.foreign.isEmpty {
            raw("<p class=\"foreign\">foreign: ")
            value(lookup.foreign.joined(separator: ", "))
            raw("</p>")
        }
        raw("</div>\n")
    }
}
