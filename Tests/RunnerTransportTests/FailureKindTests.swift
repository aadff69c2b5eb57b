import Testing

@testable import RunnerTransport
import RunnerVocabulary

@Suite("CURLcode → failure kind", .timeLimit(.minutes(3)))
struct FailureKindTests {
    @Test(
        "documented codes",
        arguments: [
            (6, TransferError.Kind.resolve), (5, .resolve),
            (7, .connect), (45, .connect),
            (28, .timeout),
            (35, .tls), (51, .tls), (53, .tls), (54, .tls), (58, .tls), (59, .tls), (60, .tls), (64, .tls),
            (66, .tls), (77, .tls), (80, .tls), (83, .tls), (90, .tls), (91, .tls), (98, .tls),
            (1, .http), (3, .http), (8, .http), (16, .http), (22, .http), (47, .http), (52, .http), (92, .http),
            (95, .http),
            (18, .io), (23, .io), (26, .io), (42, .io), (55, .io), (56, .io), (27, .io), (0, .io), (99, .io),
        ])
    func mapping(code: Int, kind: TransferError.Kind) {
        #expect(TransferError.Kind(curlCode: code) == kind)
    }

    @Test("a refused setup call fails the transfer with the call named and the code's kind")
    func curlErrorAsTransferFailure() {
        let error = CurlError(call: "curl_easy_setopt(CURLOPT_URL)", code: 3, message: "URL using bad/illegal format or missing URL")
        let failure = error.transferFailure
        #expect(failure.kind == .http)
        #expect(failure.curlCode == 3)
        #expect(failure.message == "curl_easy_setopt(CURLOPT_URL) failed (3): URL using bad/illegal format or missing URL")
    }

    @Test("a receive error over curl's header limit is the server's fault; other receive errors are io")
    func tooLargeHeadersAreHTTP() {
        #expect(TransferError.Kind(curlCode: 56, message: "Too large response headers: 1048576 > 307200") == .http)
        #expect(TransferError.Kind(curlCode: 56, message: "Recv failure: Connection reset by peer") == .io)
        #expect(TransferError.Kind(curlCode: 28, message: "Too large response headers") == .timeout)
    }
}
