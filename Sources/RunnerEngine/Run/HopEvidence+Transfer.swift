import RunnerResults
import RunnerTransport
import RunnerVocabulary

extension HopEvidence {
    /// The hop as it was sent and what its transfer reported, written once, in place.
    /// - Parameter headers: the request's headers as sent (the session's cookies included),
    ///   moved into the hop.
    init(wire: borrowing WirePlan, request: borrowing HopRequest, headers: consuming [Header], outcome: borrowing TransferOutcome) {
        self.init(
            method: request.method, originalURL: wire.originalURL.description, connection: wire.connection,
            timings: outcome.evidence.timings)
        connectedIP = outcome.evidence.connectedIP
        connectedPort = outcome.evidence.connectedPort
        httpVersion = outcome.evidence.httpVersion
        newConnection = outcome.evidence.newConnections > 0
        certificate = outcome.evidence.certificate ?? outcome.evidence.verification?.leaf
        tls = outcome.evidence.tls
        requestHeaders = headers
        requestBody = request.body
        if case .success(let response) = outcome.result {
            status = response.status
            contentLength = response.firstValue(of: "Content-Length").flatMap { Int($0) }
            bodyLength = response.bodyLength
            bodySHA256 = response.bodySHA256
        }
    }
}
