import RunnerResults
import RunnerVocabulary

/// The HTML report's layout of a hop's facts: a `<dt>`/`<dd>` pair each, values redacted and
/// escaped, the chain as a table.
extension HTMLWriter: EvidenceSink {
    mutating func beginFact(_ label: StaticString) {
        raw("<dt>")
        raw(label)
        raw("</dt><dd>")
    }

    mutating func endFact() {
        raw("</dd>")
    }

    mutating func literal(_ text: StaticString) {
        raw(text)
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
}
