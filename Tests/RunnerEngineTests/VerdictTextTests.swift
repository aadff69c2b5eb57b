import Foundation
import RunnerPlan
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
        #expect(VerdictText.milliseconds(seconds) == text)
    }

    @Test(
        "plan limits are exact",
        arguments: [
            (Duration.milliseconds(800), "800 ms"), (.seconds(1.5), "1500 ms"), (.microseconds(12_500), "12.5 ms"),
            (.microseconds(250), "0.25 ms"), (.seconds(2), "2000 ms"),
        ])
    func limits(duration: Duration, text: String) {
        #expect(VerdictText.milliseconds(duration) == text)
    }

    @Test("fixed never uses exponent form")
    func fixed() {
        #expect(VerdictText.fixed(1e-7, fractionDigits: 3) == "0")
        #expect(VerdictText.fixed(800.4, fractionDigits: 2) == "800.4")
        #expect(VerdictText.fixed(-2.5, fractionDigits: 1) == "-2.5")
        #expect(VerdictText.fixed(0.0999, fractionDigits: 3) == "0.1")
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
        #expect(VerdictText.quoted("a\r\nb\t\u{7F}\u{85}c") == #"'a\r\nb\t\u{7F}\u{85}c'"#)
        #expect(VerdictText.quoted("it's") == "'it's'")
        #expect(VerdictText.quoted(String(repeating: "é", count: 121)) == "'" + String(repeating: "é", count: 120) + "…'")
        #expect(VerdictText.quoted(String(repeating: "é", count: 120)) == "'" + String(repeating: "é", count: 120) + "'")
        #expect(VerdictText.quotedList(["a", "b"]) == "'a', 'b'")
    }

    @Test("matcher descriptions")
    func matchers() {
        #expect(VerdictText.describe(.equals("x")) == "equals 'x'")
        #expect(VerdictText.describe(.contains("json")) == "contains 'json'")
        #expect(VerdictText.describe(.matches("^a")) == "matches '^a'")
        #expect(VerdictText.describe(.absent) == "absent")
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
