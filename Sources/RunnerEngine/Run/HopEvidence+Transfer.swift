import RunnerResults
import RunnerTransport
import RunnerVocabulary

extension HopEvidence {
    /// - Parameter headers: the request's headers as sent (the session's cookies included).
    static func from(wire: WirePlan, request: HopRequest, headers: [Header], outcome: TransferOutcome) -> HopEvidence {
        let evidence = outcome.evidence
        var hop = HopEvidence(
            method: request.method, originalURL: wire.originalURL.description, urlSent: wire.urlSent,
            hostHeader: wire.explicitHostHeader ?? wire.hostHeader, sni: wire.sni, pinnedIP: wire.pinnedIP?.text,
            timings: evidence.timings)
        hop.connectedIP = evidence.connectedIP
        hop.connectedPort = evidence.connectedPort
        hop.httpVersion = evidence.httpVersion
        hop.newConnection = evidence.newConnections > 0
        hop.certificate = evidence.certificate ?? evidence.verification?.leaf
        hop.tls = evidence.tls
        hop.strategy = wire.strategy
        hop.requestHeaders = headers
        hop.requestBody = request.body
        hop.connectTo = wire.connectTo
        hop.verifyName = wire.verifyName
        if case .success(let response) = outcome.result {
            hop.status = response.status
            hop.bodyLength = response.bodyLength
            hop.bodySHA256 = response.bodySHA256
        }
        return hop
    }
}
