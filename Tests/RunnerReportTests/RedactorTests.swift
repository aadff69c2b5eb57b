import Foundation
import RunnerResults
import Testing

@Suite("Redactor")
struct RedactorTests {
    @Test func masksTheLiteralPercentEncodedAndBase64Forms() {
        let secret = "p@ss word/42"
        let redactor = Redactor(secrets: [secret])
        let base64 = Data(secret.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let text = "a \(secret) b p%40ss%20word%2F42 c \(base64)"
        #expect(redactor.redact(text) == "a *** b *** c ***")
    }

    @Test func masksTheLongerOfOverlappingSecretsWhole() {
        let redactor = Redactor(secrets: ["abc", "abcdef"])
        #expect(redactor.redact("xabcdefx abc") == "x***x ***")
    }

    @Test func leavesTextWithoutSecretsAlone() {
        #expect(Redactor(secrets: [""]).redact("nothing to hide") == "nothing to hide")
    }
}
