import RunnerResults
import RunnerTransport
import RunnerVocabulary

extension HopEvidence {
    /// The hop as it was sent and what its transfer reported, written once: every fact is given
    /// to one initializer (a delegating one followed by assignments builds the hop twice).
    /// - Parameter headers: the request's headers as sent (the session's cookies included),
    ///   moved into the hop.
    init(wire: borrowing WirePlan, request: borrowing HopRequest, headers: consuming [Header], outcome: borrowing TransferOutcome) {
        var status: Int?, contentLength: Int?, bodyLength: Int?, bodySHA256: String?
        if case .success(let response) = outcome.result {
            status = response.status
            contentLength = response.firstValue(of: "Content-Length").flatMap { Int($0) }
            bodyLength = response.bodyLength
            bodySHA256 = response.bodySHA256
        }
        let evidence = outcome.evidence
        self.init(
            method: request.method, originalURL: wire.originalURL.description, connection: wire.connection,
            timings: evidence.timings, connectedIP: evidence.connectedIP, connectedPort: evidence.connectedPort,
            httpVersion: evidence.httpVersion, status: status, certificate: evidence.certificate ?? evidence.verification?.leaf,
            tls: evidence.tls, newConnection: evidence.newConnections > 0, contentLength: contentLength,
            bodyLength: bodyLength, bodySHA256: bodySHA256, requestHeaders: headers, requestBody: request.body)
    }
}
