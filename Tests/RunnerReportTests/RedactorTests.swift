import Foundation
import RunnerResults
import RunnerVocabulary
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

    /// A secret inside base64 data starts at any offset: masked after prefixes of 0, 1 and 2
    /// bytes (mod 3), whatever follows it, leaving at most the characters it shares with them.
    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func masksBase64AtEveryAlignment(prefixLength: Int) {
        let secret = "hunter2-Secret!"
        let redactor = Redactor(secrets: [secret])
        for suffix in ["", "x", "yz", "@end"] {
            let data = Data(repeating: UInt8(ascii: "u"), count: prefixLength) + Data((secret + suffix).utf8)
            let encoded = data.base64EncodedString()
            let redacted = redactor.redact("Authorization: Basic \(encoded)")
            #expect(redacted.contains(Redactor.mask), "prefix \(prefixLength), suffix '\(suffix)': \(redacted)")
            // What is left of the encoding: the prefix's characters, at most 3 shared ones, the suffix's.
            let left = redacted.dropFirst("Authorization: Basic ".count).replacingOccurrences(of: Redactor.mask, with: "")
            #expect(left.count <= (prefixLength + suffix.count) * 4 / 3 + 6, "prefix \(prefixLength), suffix '\(suffix)': \(redacted)")
        }
    }

    @Test func masksAUserColonSecretBasicHeader() {
        let redactor = Redactor(secrets: ["s3cr3t-value"])
        let header = "Basic " + Data("probe:s3cr3t-value".utf8).base64EncodedString()
        #expect(redactor.redact(header).contains(Redactor.mask))
        #expect(!redactor.redact(header).contains("czNjcjN0LXZhbHVl"))
    }

    @Test func masksTheLongerOfOverlappingSecretsWhole() {
        let redactor = Redactor(secrets: ["abc", "abcdef"])
        #expect(redactor.redact("xabcdefx abc") == "x***x ***")
    }

    /// Captured secrets wait for their forms until a text is masked: a text masked after any
    /// number of them reads as one masked by a redactor that had them from the start; a value
    /// captured again changes nothing (the reports' repeated parts stay valid).
    @Test func secretsAddedLaterMaskEveryFormAsThoseGivenFirst() {
        let tokens = (0..<50).map { "captured-token-\($0)-x" }
        let late = Redactor(secrets: [])
        #expect(late.isEmpty && late.secretsAdded == 0)
        for (index, token) in tokens.enumerated() {
            if index.isMultiple(of: 2) { late.add(token) } else { late.add(SecretValue(name: "t\(index)", value: token)) }
        }
        late.add(tokens[3])
        late.add(SecretValue(name: "again", value: tokens[4]))
        late.add("")
        #expect(!late.isEmpty && late.secretsAdded == tokens.count)
        let early = Redactor(secrets: tokens)
        #expect(late.forms == early.forms)
        let base64 = Data(tokens[9].utf8).base64EncodedString()
        let text = "Bearer \(tokens[0]) ?t=\(tokens[49]) Basic \(base64) \(tokens[4])"
        #expect(late.redact(text) == early.redact(text))
        #expect(late.redact(Data(text.utf8)) == early.redact(Data(text.utf8)))
        #expect(!late.redact(text).contains("captured-token"))
        late.add("one-more-secret")
        #expect(late.secretsAdded == tokens.count + 1)
        #expect(late.redact("x one-more-secret y") == "x *** y")
    }

    @Test func leavesTextWithoutSecretsAlone() {
        #expect(Redactor(secrets: [""]).redact("nothing to hide") == "nothing to hide")
    }

    /// A run that captured many secret tokens: the text is read once against an index of the
    /// forms, with the same masks, longest first, as a redactor of a few of them.
    @Test func manySecretsAreMaskedInEveryFormToo() {
        let tokens = (0..<300).map { String(format: "%08x-token-%04d", $0 &* 2_654_435_761 % 4_294_967_291, $0) }
        let redactor = Redactor(secrets: tokens + ["abc", "abcdef", "p@ss word/42"])
        #expect(redactor.forms.count > 1000)
        let base64 = Data(tokens[7].utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let text = "GET /me?t=\(tokens[299]) Authorization: Bearer \(tokens[0]); Basic \(base64) xabcdefx abc p%40ss%20word%2F42 ünï"
        let tokensInText = Redactor(secrets: [tokens[299], tokens[0], tokens[7]])
        let others = Redactor(secrets: ["abc", "abcdef", "p@ss word/42"])
        #expect(redactor.redact(text) == others.redact(tokensInText.redact(text)))
        #expect(redactor.redact(text).hasPrefix("GET /me?t=*** Authorization: Bearer ***; Basic ***"))
        #expect(redactor.redact(text).hasSuffix(" x***x *** *** ünï"))
        #expect(redactor.redact("nothing to hide, not even 0000") == "nothing to hide, not even 0000")
        let added = "late-captured-token-42"
        #expect(redactor.redact(added) == added)
        redactor.add(added)
        #expect(redactor.redact("x \(added) y") == "x *** y")
    }
}
