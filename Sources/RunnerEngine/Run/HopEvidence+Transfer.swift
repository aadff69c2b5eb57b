import RunnerResults
import RunnerTransport

extension HopEvidence {
    static func from(wire: WirePlan, method: String, outcome: TransferOutcome) -> HopEvidence {
        let evidence = outcome.evidence
        var hop = HopEvidence(
            method: method, originalURL: wire.originalURL.description, urlSent: wire.urlSent,
            hostHeader: wire.explicitHostHeader ?? wire.hostHeader, sni: wire.sni, pinnedIP: wire.pinnedIP?.text,
            timings: Timings(
                resolve: evidence.timings.resolve, connect: evidence.timings.connect, tls: evidence.timings.tls,
                firstByte: evidence.timings.firstByte, total: evidence.timings.total))
        hop.connectedIP = evidence.connectedIP
        hop.connectedPort = evidence.connectedPort
        hop.httpVersion = evidence.httpVersion
        hop.newConnection = evidence.newConnections > 0
        hop.certificate = (evidence.certificate ?? evidence.verification?.leaf).map {
            CertificateSummary(subject: $0.subject, issuer: $0.issuer, notAfter: $0.notAfter, subjectAltNames: $0.subjectAltNames)
        }
        if case .success(let response) = outcome.result {
            hop.status = response.status
            hop.bodyLength = response.bodyLength
            hop.bodySHA256 = response.bodySHA256
        }
        return hop
    }
}
