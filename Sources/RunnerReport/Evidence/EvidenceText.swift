import RunnerResults
import RunnerVocabulary

/// The evidence of one result as plain lines: the single rendering behind JUnit `<system-out>`
/// and the verbose console, so both always tell the same story.
enum EvidenceText {
    /// The line every report shows first when verification was skipped.
    static let insecureLine = "INSECURE: certificate verification was skipped (insecure: true)"

    /// Redacted, one-line-per-fact rendering of `evidence` (no trailing newline on any line).
    static func lines(for evidence: Evidence, redactor: Redactor) -> [String] {
        // Redact the raw value first (a secret may contain characters that escaping changes),
        // then escape controls so each fact stays on its own line.
        let show = { (value: String) in PlainText.singleLine(redactor.redact(value)) }
        var lines: [String] = []
        if evidence.insecure { lines.append(insecureLine) }
        lines.append("strategy: \(show(evidence.strategy.rawValue))")
        lines.append("ip source: \(show(evidence.ipSource))")
        if evidence.hops.isEmpty { lines.append("no request was sent") }
        for (index, hop) in evidence.hops.enumerated() {
            lines.append("hop \(index + 1): \(show(hop.method)) \(show(hop.originalURL))")
            lines += hopLines(hop, show: show).map { "  " + $0 }
        }
        lines += evidence.notes.map { "note: \(show($0))" }
        // A secret can also span two values joined here (an IP and a port, say): redact the
        // composed lines once more.
        return lines.map(redactor.redact)
    }

    private static func hopLines(_ hop: HopEvidence, show: (String) -> String) -> [String] {
        var lines = [
            "url sent: \(show(hop.urlSent))",
            "host: \(show(hop.hostHeader))",
            "sni: \(hop.sni.map(show) ?? "none")",
            "pinned ip: \(hop.pinnedIP.map(show) ?? "none (system resolver)")",
            "connected: \(connected(hop, show: show))",
            "http version: \(hop.httpVersion.map(show) ?? "none")",
            "status: \(hop.status.map(String.init) ?? "no response")",
        ]
        if let certificate = hop.certificate {
            let expiry = certificate.notAfter.map(Format.timestamp) ?? "unknown"
            lines.append(
                "certificate: subject \(show(certificate.subject)); issuer \(show(certificate.issuer)); expires \(expiry)")
            if !certificate.subjectAltNames.isEmpty {
                lines.append("certificate names: \(certificate.subjectAltNames.map(show).joined(separator: ", "))")
            }
        } else {
            lines.append("certificate: none")
        }
        lines.append("timings: \(timings(hop.timings))")
        lines.append("connection: \(hop.newConnection.map { $0 ? "new" : "reused" } ?? "unknown")")
        if let length = hop.bodyLength {
            lines.append("body: \(length) bytes, sha256 \(hop.bodySHA256.map(show) ?? "unknown")")
        } else {
            lines.append("body: none received")
        }
        return lines
    }

    private static func connected(_ hop: HopEvidence, show: (String) -> String) -> String {
        guard let ip = hop.connectedIP else { return "not connected" }
        let host = ip.utf8.contains(UInt8(ascii: ":")) ? "[\(show(ip))]" : show(ip)
        return hop.connectedPort.map { "\(host):\($0)" } ?? host
    }

    /// `resolve 0.120 ms, connect 0.300 ms, …`; phases that did not happen are left out.
    private static func timings(_ timings: Timings) -> String {
        let phases: [(String, Double?)] = [
            ("resolve", timings.resolve), ("connect", timings.connect), ("tls", timings.tls),
            ("first byte", timings.firstByte), ("total", timings.total),
        ]
        let shown = phases.compactMap { name, value in value.map { "\(name) \(Format.milliseconds($0)) ms" } }
        return shown.isEmpty ? "none recorded" : shown.joined(separator: ", ")
    }
}
