import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

/// The redactor masks a secret in exactly the forms the runner sends it in — the URL a plan's
/// URL becomes (`PlanURL`), a captured value put into a query — and the forms a server echoes it
/// in (either case of hex, JSON-escaped): the forms come from the same encoder as the URLs.
@Suite("Secret forms", .timeLimit(.minutes(1)))
struct SecretFormsTests {
    static let awkward = [
        "tok en-1", "pässwort-1", "Q9&<x>\"y", "50%off-x", "a+b=c/d?e", "it's-\\-ok", "中文-密钥 1", "~._-plain",
    ]

    @Test(arguments: awkward)
    func theURLAPlanSendsIsMaskedWhole(secret: String) throws {
        let url = try #require(PlanURL.parse("https://api.test/p/\(secret)/x?q=\(secret)&x=1"))
        let redactor = Redactor(secrets: [secret])
        #expect(redactor.redact(url.description) == "https://api.test/p/***/x?q=***&x=1", "\(url.description)")
    }

    @Test(arguments: awkward)
    func aCapturedValueInAQueryIsMaskedInBothCasesOfHex(secret: String) {
        let redactor = Redactor(secrets: [secret])
        for lowercase in [false, true] {
            let encoded = PercentEncoding.encode(secret, keeping: .unreserved, lowercaseHex: lowercase)
            #expect(redactor.redact("/next?v=\(encoded)&x=1") == "/next?v=***&x=1", "\(encoded)")
            let path = PercentEncoding.encode(secret, keeping: .pathAndQuery, lowercaseHex: lowercase)
            #expect(redactor.redact("/next?v=\(path)&x=1") == "/next?v=***&x=1", "\(path)")
        }
    }

    /// A server that echoes the secret in a JSON body escapes it its own way.
    @Test(arguments: awkward)
    func aSecretEchoedInJSONIsMasked(secret: String) throws {
        let redactor = Redactor(secrets: [secret])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let foundation = String(decoding: try encoder.encode(["token": secret]), as: UTF8.self)
        #expect(redactor.redact(foundation) == #"{"token":"***"}"#, "\(foundation)")
        // Python's json.dumps (ASCII only) and Go's encoding/json (HTML-safe).
        for escaped in SecretFormsTests.asciiOnly(secret) {
            #expect(redactor.redact(#"{"token":"\#(escaped)"}"#) == #"{"token":"***"}"#, "\(escaped)")
        }
    }

    /// Only the escapes a secret meets make forms: a plain token has none of JSON's, a slash
    /// gives PHP's `\/`, a non-ASCII letter Python's `\u00e4` in both cases of hex.
    @Test func theJSONFormsAreThoseOfTheEscapesTheSecretMeets() {
        let plain = "eyJhbGciOi.abc_DEF-123~"
        #expect(SecretForms.all(of: plain).allSatisfy { !$0.contains("\\") })
        #expect(SecretForms.all(of: "a/b-token").contains(#"a\/b-token"#))
        let letter = SecretForms.all(of: "pä<ss")
        for form in [#"p\u00e4<ss"#, #"p\u00E4<ss"#, #"pä\u003css"#, #"p\u00e4\u003css"#] {
            #expect(letter.contains(form), "\(form) in \(letter)")
        }
    }

    /// Named secrets are cut out of a reproduction longest first, each value under its first name.
    @Test func namedSecretsAreFoundLongestFirstUnderTheirFirstName() {
        let redactor = Redactor(named: [
            SecretValue(name: "SHORT", value: "abc"), SecretValue(name: "LONG", value: "abcdef"),
            SecretValue(name: "AGAIN", value: "abc"), SecretValue(name: "MIDDLE", value: "xyzw"),
        ])
        #expect(redactor.pieces(of: "1abcdef2abc3xyzw") == [
            .text("1"), .secret(name: "LONG"), .text("2"), .secret(name: "SHORT"), .text("3"), .secret(name: "MIDDLE"),
        ])
        #expect(redactor.secretNames == ["LONG", "MIDDLE", "SHORT"])
    }

    @Test func percentEncodingKeepsWhatRFC3986Allows() {
        #expect(PercentEncoding.encode("a b-c&d%zz%41/é", keeping: .pathAndQuery) == "a%20b-c&d%25zz%41/%C3%A9")
        #expect(PercentEncoding.encode("a b-c&d%zz%41/é", keeping: .unreserved) == "a%20b-c%26d%25zz%2541%2F%C3%A9")
        #expect(PercentEncoding.encode("é", keeping: .unreserved, lowercaseHex: true) == "%c3%a9")
        #expect(PercentEncoding.isEncoded("/a/b?c=d&e=%41", keeping: .pathAndQuery))
        #expect(!PercentEncoding.isEncoded("/a b", keeping: .pathAndQuery))
    }

    /// `\u00e4` for every non-ASCII character (Python), `\u003c` for `<`, `>` and `&` (Go).
    static func asciiOnly(_ text: String) -> [String] {
        func escaped(htmlSafe: Bool) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                if scalar == "\"" { result += "\\\""; continue }
                if scalar == "\\" { result += "\\\\"; continue }
                let html = htmlSafe && "<>&".unicodeScalars.contains(scalar)
                if scalar.value > 0x7E || html {
                    for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
        return [escaped(htmlSafe: false), escaped(htmlSafe: true)]
    }
}
