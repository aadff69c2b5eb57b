import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

@Suite("Verdict: text helpers", .timeLimit(.minutes(3)))
struct VerdictTextTests {
    @Test(
        "milliseconds from seconds",
        arguments: [
            (1.234, "1234 ms"), (0.8, "800 ms"), (0.0125, "13 ms"), (0.0071, "7.1 ms"), (0.003, "3 ms"),
            (0, "0 ms"), (12.0, "12000 ms"), (0.00004, "0 ms"),
        ])
    func milliseconds(seconds: Double, text: String) {
        #expect(VerdictText.milliseconds(.seconds(seconds)) == text)
    }

    @Test(
        "plan limits are exact",
        arguments: [
            (Duration.milliseconds(800), "800 ms"), (.seconds(1.5), "1500 ms"), (.microseconds(12_500), "12.5 ms"),
            (.microseconds(250), "0.25 ms"), (.seconds(2), "2000 ms"),
        ])
    func limits(duration: Duration, text: String) {
        #expect(VerdictText.limit(duration) == text)
    }

    @Test("fixed never uses exponent form")
    func fixed() {
        #expect(Duration.fixed(1e-7, fractionDigits: 3) == "0")
        #expect(Duration.fixed(800.4, fractionDigits: 2) == "800.4")
        #expect(Duration.fixed(-2.5, fractionDigits: 1) == "-2.5")
        #expect(Duration.fixed(0.0999, fractionDigits: 3) == "0.1")
    }

    @Test(
        "JSON rendering",
        arguments: [
            (JSONValue.number(42), "42"), (.number(42.0), "42"), (.number(-3), "-3"), (.number(0.5), "0.5"),
            (.number(1e20), "1e+20"), (.string("probe"), #""probe""#), (.bool(true), "true"),
            (.bool(false), "false"), (.null, "null"), (.array([.number(1), .number(2)]), "[1,2]"),
            (.array([]), "[]"), (.object([:]), "{}"),
            (.object(["b": .array([.null]), "a": .number(1)]), #"{"a":1,"b":[null]}"#),
            (.string("a\"b\\c\nd\u{1}é"), #""a\"b\\c\nd\u0001é""#),
        ])
    func json(value: JSONValue, text: String) {
        #expect(VerdictText.json(value) == text)
    }

    @Test("quoted excerpts escape control characters and cut long text")
    func quoted() {
        #expect(VerdictText.quoted("a\r\nb\t\u{7F}\u{85}c", masking: nil) == #"'a\r\nb\t\u{7F}\u{85}c'"#)
        #expect(VerdictText.quoted("it's", masking: nil) == "'it's'")
        #expect(VerdictText.quoted(String(repeating: "é", count: 121), masking: nil) == "'" + String(repeating: "é", count: 120) + "…'")
        #expect(VerdictText.quoted(String(repeating: "é", count: 120), masking: nil) == "'" + String(repeating: "é", count: 120) + "'")
        #expect(VerdictText.quotedList(["a", "b"], masking: nil) == "'a', 'b'")
    }

    /// A secret that straddles the cut is masked whole before the excerpt is taken: none of
    /// its characters show, wherever the cut falls.
    @Test("excerpts mask secrets before they cut", arguments: [100, 110, 115, 119, 120, 121])
    func excerptsMaskBeforeTheCut(secretStart: Int) {
        let secret = "s3cr3t-VALUE-1234"
        let redactor = Redactor(secrets: [secret])
        let body = String(repeating: "p", count: secretStart) + secret + String(repeating: "q", count: 300)
        let quoted = VerdictText.quoted(body, masking: redactor)
        let masked = String(repeating: "p", count: secretStart) + Redactor.mask + String(repeating: "q", count: 300)
        #expect(quoted == "'" + masked.prefix(VerdictText.excerptLimit) + "…'")
        for length in 3...secret.count {
            #expect(!quoted.contains(secret.prefix(length)), "\(quoted) shows \(secret.prefix(length))")
        }
        let json = VerdictText.jsonExcerpt(.object(["token": .string(body)]), masking: redactor)
        #expect(!json.contains("s3cr"), "\(json)")
    }

    @Test("matcher descriptions")
    func matchers() {
        #expect(VerdictText.describe(.equals("x"), masking: nil) == "equals 'x'")
        #expect(VerdictText.describe(.contains("json"), masking: nil) == "contains 'json'")
        #expect(VerdictText.describe(.matches("^a"), masking: nil) == "matches '^a'")
        #expect(VerdictText.describe(.absent, masking: nil) == "absent")
        #expect(VerdictText.byteCount(1) == "1 byte")
        #expect(VerdictText.byteCount(2) == "2 bytes")
    }

    @Test("JSON values as people write them: whole numbers without a fraction, keys sorted, text escaped")
    func jsonText() {
        #expect(VerdictText.json(.number(42)) == "42")
        #expect(VerdictText.json(.number(-4.5)) == "-4.5")
        #expect(VerdictText.json(.null) == "null")
        #expect(VerdictText.json(.bool(true)) == "true")
        #expect(VerdictText.json(.string("a\"b\\c\nd\u{01}/é")) == #""a\"b\\c\nd\u0001/é""#)
        #expect(VerdictText.json(.object(["b": .array([.number(1), .string("x")]), "a": .object([:])]))
            == #"{"a":{},"b":[1,"x"]}"#)
        #expect(VerdictText.json(.number(.infinity)) == "inf")
    }
}
