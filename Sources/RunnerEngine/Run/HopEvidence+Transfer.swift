import RunnerResults
import RunnerTransport
import RunnerVocabulary

extension HopEvidence {
    /// - Parameter headers: the request's headers as sent (the session's cookies included).
    static func from(wire: WirePlan, request: HopRequest, headers: [Header], outcome: TransferOutcome) -> HopEvidence {
        let evidence = outcome.evidence
        var hop = HopEvidence(
            method: request.method, originalURL: wire.originalURL.description, connection: wire.connection,
            timings: evidence.timings)
        hop.connectedIP = evidence.connectedIP
        hop.connectedPort = evidence.connectedPort
        hop.httpVersion = evidence.httpVersion
        hop.newConnection = evidence.newConnections > 0
        hop.certificate = evidence.certificate ?? evidence.verification?.leaf
        hop.tls = evidence.tls
        hop.requestHeaders = headers
        hop.requestBody = request.body
        if case .success(let response) = outcome.result {
            hop.status = response.status
            hop.contentLength = response.firstValue(of: "Content-Length").flatMap { Int($0) }
            hop.bodyLength = response.bodyLength
            hop.bodySHA256 = response.bodySHA256
        }
        return hop
    }
}
