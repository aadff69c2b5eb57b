import RunnerResults
import RunnerTransport
import RunnerVocabulary

extension HopEvidence {
    static func from(wire: WirePlan, method: String, outcome: TransferOutcome) -> HopEvidence {
        let evidence = outcome.evidence
        var hop = HopEvidence(
            method: method, originalURL: wire.originalURL.description, urlSent: wire.urlSent,
            hostHeader: wire.explicitHostHeader ?? wire.hostHeader, sni: wire.sni, pinnedIP: wire.pinnedIP?.text,
            timings: evidence.timings)
        hop.connectedIP = evidence.connectedIP
        hop.connectedPort = evidence.connectedPort
        hop.httpVersion = evidence.httpVersion
        hop.newConnection = evidence.newConnections > 0
        hop.certificate = evidence.certificate ?? evidence.verification?.leaf
        if case .success(let response) = outcome.result {
            hop.status = response.status
            hop.bodyLength = response.bodyLength
            hop.bodySHA256 = response.bodySHA256
        }
        return hop
    }
}
