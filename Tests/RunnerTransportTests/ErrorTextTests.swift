import Foundation
import Testing

@testable import RunnerTransport
import RunnerVocabulary

@Suite("Errors rendered for humans", .timeLimit(.minutes(3)))
struct ErrorTextTests {
    private let leaf = CertificateSummary(
        subject: "CN=default.lab.test,O=runner lab", issuer: "CN=runner lab CA,O=runner lab",
        notBefore: nil, notAfter: Date(timeIntervalSince1970: 1_700_000_000), subjectAltNames: ["default.lab.test"])

    @Test("a setup failure names the call")
    func transportError() {
        let error = CurlError(call: "curl_multi_init", code: -1, message: "returned NULL (out of memory)")
        #expect(error.description == "curl_multi_init failed (-1): returned NULL (out of memory)")
    }

    @Test("libcurl's code texts come through")
    func curlTexts() {
        #expect(CurlCode.text(28) == "Timeout was reached")
        let error = CurlError.easy(.init(rawValue: 6), call: "curl_easy_perform")
        #expect(error.description == "curl_easy_perform failed (6): Couldn't resolve host name")
    }

    @Test("a trust-override mismatch says which name was checked and what the server sent")
    func mismatch() {
        let text = FailureMessage.text(
            curlText: "SSL certificate problem: hostname mismatch",
            verification: VerificationFailure(code: 62, reason: "hostname mismatch", leaf: leaf),
            verifyName: "sni.lab.test")
        #expect(text == "SSL certificate problem: hostname mismatch; name checked: 'sni.lab.test'; server certificate: CN=default.lab.test,O=runner lab (names: default.lab.test)")
    }

    @Test("an expired certificate gives its end date")
    func expired() {
        let text = FailureMessage.text(
            curlText: "SSL certificate problem: certificate has expired",
            verification: VerificationFailure(code: 10, reason: "certificate has expired", leaf: leaf), verifyName: nil)
        #expect(text == "SSL certificate problem: certificate has expired; server certificate: CN=default.lab.test,O=runner lab (names: default.lab.test); expired 2023-11-14T22:13:20Z")
    }

    @Test("curl's own name check gets the verifier's reason added")
    func curlHostCheck() {
        let text = FailureMessage.text(
            curlText: "SSL: no alternative certificate subject name matches target host name 'wrong.lab.test'",
            verification: VerificationFailure(code: 62, reason: "hostname mismatch", leaf: nil), verifyName: nil)
        #expect(text == "SSL: no alternative certificate subject name matches target host name 'wrong.lab.test'; verifier: hostname mismatch (62)")
    }

    @Test("without verification evidence the message is libcurl's")
    func plain() {
        #expect(FailureMessage.text(curlText: "Connection timed out after 1000 milliseconds", verification: nil, verifyName: "x") == "Connection timed out after 1000 milliseconds")
    }
}
