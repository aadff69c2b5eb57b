import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// Random secrets — spaces, `-`, `&`, `%`, quotes, markup, non-ASCII — placed in URLs (path and
/// query), headers, bodies and expectations, echoed back by the lab so that the secret lands
/// near the cut of the body's excerpt: no part of any of them shows in the console, the JUnit,
/// JSON, HTML and metrics reports or the curl script, raw or in any encoded form.
@Suite("Secrets, at random", .timeLimit(.minutes(3)))
struct SecretPropertyTests {
    /// Inside a secret: letters, digits and the characters encoders and excerpts treat apart.
    static let inner = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789 -&%\"'<>+=~.é中ä\\")
    /// First and last: a server trims the blanks around a header value.
    static let edge = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    static func secret(using generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 12...20, using: &generator)
        var characters = [edge.randomElement(using: &generator) ?? "a"]
        for _ in 0..<(length - 2) { characters.append(inner.randomElement(using: &generator) ?? "b") }
        characters.append(edge.randomElement(using: &generator) ?? "c")
        return String(characters)
    }

    /// A scenario per place, for secret `index`: the echoed URL puts the secret across the
    /// 120-character cut of the body's excerpt (`{"method":"GET","path":"/echo?pad=` is 34).
    static func scenarios(_ index: Int, secret: String, using generator: inout SeededGenerator) -> String {
        let start = Int.random(in: (121 - secret.count)...119, using: &generator)
        let pad = String(repeating: "p", count: max(1, start - 37))
        return """
              - name: echoed url \(index)
                strategy: sni-resolve
                request:
                  url: "https://api.lab.test:{{https}}/echo?pad=\(pad)&s=${secret:S\(index)}&x=1"
                  headers: {X-Token: "${secret:S\(index)}"}
                expect: {body: {contains: "no such text"}}
              - name: path, header, body and expectations \(index)
                strategy: [sni-resolve, trust-override]
                request:
                  method: POST
                  url: "https://api.lab.test:{{https}}/echo/${secret:S\(index)}?q=${secret:S\(index)}"
                  headers: {Authorization: "Bearer ${secret:S\(index)}", X-Pad: "\(pad)"}
                  body: '{"token": "${secret:S\(index)}"}'
                expect:
                  status: 201
                  headers: {Content-Type: {equals: "\(pad)${secret:S\(index)}"}}
                  body: {equals: "\(pad)${secret:S\(index)}"}

            """
    }

    @Test func noPartOfARandomSecretShowsAnywhere() async throws {
        var generator = SeededGenerator(seed: SeededGenerator.seed(30_2026, for: "secrets at random"))
        let count = 6
        let secrets = (0..<count).map { _ in Self.secret(using: &generator) }
        var plan = """
            version: 1
            name: random secrets
            defaults: {ca: "{{ca}}", domains: lab, timeout: 15s}
            domains:
              lab:
                static: {api.lab.test: [127.0.0.2]}
            scenarios:

            """
        for (index, secret) in secrets.enumerated() { plan += Self.scenarios(index, secret: secret, using: &generator) }

        let lab = try await SharedLab.get()
        let path = try LabPlans.write(plan, lab: lab)
        let directory = try LabPlans.temporaryDirectory()
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        var environment: [String: String] = [:]
        for (index, secret) in secrets.enumerated() { environment["S\(index)"] = secret }
        let output = try await PackageExecutable.run(
            "runner",
            [path, "-v", "--junit", file("junit.xml"), "--json", file("report.json"), "--html", file("report.html"),
             "--metrics", file("runner.prom"), "--curl", file("replay.sh")],
            environment: environment)

        // Every result failed as the plan says: the secrets reached the lab and the checks.
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("\(3 * count) failed"), "\(output.stdout)")
        #expect(output.stdout.contains("pppp"), "the excerpts are there: \(output.stdout)")

        var channels = [("stdout", output.stdout), ("stderr", output.stderr)]
        for name in ["junit.xml", "report.json", "report.html", "runner.prom", "replay.sh"] {
            let text = try String(contentsOfFile: file(name), encoding: .utf8)
            channels.append((name, text))
            channels.append((name + " unescaped", Self.unescaped(text)))
        }
        for (index, secret) in secrets.enumerated() {
            for (channel, text) in channels {
                for form in Self.forms(of: secret) {
                    if let leak = Self.piece(of: form, in: text) {
                        Issue.record("\(channel) shows '\(leak)' of secret S\(index) '\(secret)' (form '\(form)')")
                    }
                }
            }
        }
    }

    /// The secret and its percent-encoded forms as URLs carry them, upper- and lower-case hex.
    static func forms(of secret: String) -> [String] {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let pathAndQuery = unreserved.union(CharacterSet(charactersIn: "!$&'()*+,;=:@/?"))
        var forms = [secret]
        for allowed in [unreserved, pathAndQuery] {
            let upper = secret.addingPercentEncoding(withAllowedCharacters: allowed) ?? secret
            forms.append(upper)
            forms.append(upper.replacingOccurrences(of: "%[0-9A-F]{2}", with: "$0", options: .regularExpression).lowercasedHex)
        }
        return Array(Set(forms))
    }

    /// The first six-character piece of `form` found in `text`, if any.
    static func piece(of form: String, in text: String) -> String? {
        let characters = Array(form)
        guard characters.count >= 6 else { return text.contains(form) ? form : nil }
        for start in 0...(characters.count - 6) {
            let piece = String(characters[start..<(start + 6)])
            if text.contains(piece) { return piece }
        }
        return nil
    }

    /// XML and HTML character references and JSON string escapes read back.
    static func unescaped(_ text: String) -> String {
        var result = text
        for (escape, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"),
                                    ("\\\"", "\""), ("\\/", "/"), ("\\\\", "\\"), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: escape, with: character)
        }
        return result
    }
}

extension String {
    /// `%C3%A9` as `%c3%a9`: the hex digits of every escape in lower case, the rest as it is.
    fileprivate var lowercasedHex: String {
        var result = ""
        var remaining = 0
        for character in self {
            if character == "%" {
                remaining = 2
                result.append(character)
            } else if remaining > 0 {
                result += character.lowercased()
                remaining -= 1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
