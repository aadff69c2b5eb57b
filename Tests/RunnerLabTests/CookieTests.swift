import Foundation
import RunnerLab
import Testing

@Suite(.timeLimit(.minutes(3))) struct CookieTests {
    static func fetch(_ lab: Lab, _ flavour: HTTPFlavour, _ path: String, _ extra: [String] = []) async throws
        -> CommandResult
    {
        try await Command.curl(
            [flavour.rawValue, "--cacert", lab.caFile, "--dump-header", "/dev/stderr"] + extra
                + ["https://\(LabAddress.primary):\(lab.httpsPort)\(path)"])
    }

    @Test(arguments: HTTPFlavour.allCases)
    func cookiesReportsWhatTheRequestCarried(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.fetch(lab, flavour, "/cookies", ["--cookie", "a=1; b=2"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.heads.last?.status == 200)
        #expect(result.text == #"{"cookies":{"a":"1","b":"2"}}"#)

        let none = try await Self.fetch(lab, flavour, "/cookies")
        #expect(none.text == #"{"cookies":{}}"#)
    }

    @Test(arguments: HTTPFlavour.allCases)
    func echoReportsCookiesBesideItsOtherFields(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let echo = try await Self.fetch(lab, flavour, "/echo", ["--cookie", "a=1; b=2"]).jsonObject()
        #expect(echo["cookies"] as? [String: String] == ["a": "1", "b": "2"])
        #expect((echo["headers"] as? [String: String])?["cookie"] == "a=1; b=2")
        #expect(echo["http_version"] as? String == flavour.version)
        #expect(echo["method"] as? String == "GET")
        #expect(echo["request_index"] as? Int == 1)
    }

    @Test func severalCookieHeadersAreReadTogetherFirstNameWins() async throws {
        let lab = try await StatelessLab.get()
        // HTTP/2 clients may send one cookie per header; RFC 9113 joins them with "; ".
        let echo = try await Self.fetch(
            lab, .http2, "/echo", ["-H", "Cookie: a=1", "-H", "Cookie: b=2;a=3; flag"]
        ).jsonObject()
        #expect(echo["cookies"] as? [String: String] == ["a": "1", "b": "2", "flag": ""])
        #expect((echo["headers"] as? [String: String])?["cookie"] == "a=1; b=2;a=3; flag")
    }

    @Test(arguments: HTTPFlavour.allCases)
    func setSendsOneSetCookiePerPairWithTheAttributes(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.fetch(
            lab, flavour, "/cookies/set?session=abc&theme=dark&attrs=Path%3D%2F%3B%20Max-Age%3D60")
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let head = try #require(result.heads.last)
        #expect(head.status == 200)
        #expect(head.values("set-cookie") == ["session=abc; Path=/; Max-Age=60", "theme=dark; Path=/; Max-Age=60"])
        #expect(result.text == #"{"set_cookies":["session=abc; Path=/; Max-Age=60","theme=dark; Path=/; Max-Age=60"]}"#)

        let bare = try await Self.fetch(lab, flavour, "/cookies/set?id=7")
        #expect(bare.heads.last?.values("set-cookie") == ["id=7"])
    }

    @Test func aCookieSetIsSentBackByACookieJar() async throws {
        let lab = try await StatelessLab.get()
        let jar = FileManager.default.temporaryDirectory.appendingPathComponent("lab-jar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: jar) }
        let base = "https://\(LabAddress.primary):\(lab.httpsPort)"
        let result = try await Command.curl([
            "--http2", "--cacert", lab.caFile, "--cookie-jar", jar.path, "--cookie", jar.path,
            "--output", "/dev/null", "\(base)/cookies/set?session=abc&attrs=Path%3D%2F", "--next",
            "--http2", "--cacert", lab.caFile, "--cookie", jar.path, "\(base)/cookies",
        ])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.text == #"{"cookies":{"session":"abc"}}"#)
    }

    @Test(arguments: [
        ("/cookies/set", "bad request: /cookies/set wants at least one name=value\n"),
        ("/cookies/set?attrs=Path%3D%2F", "bad request: /cookies/set wants at least one name=value\n"),
        ("/cookies/set?a=1%3B%20Secure", "bad request: the value of cookie a contains \";\" or a line break\n"),
        ("/cookies/set?a%20b=1", "bad request: \"a b\" is not a valid cookie name\n"),
    ])
    func malformedSetsAreRefused(_ path: String, _ message: String) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.fetch(lab, .http1, path)
        #expect(result.heads.last?.status == 400)
        #expect(result.heads.last?.values("set-cookie") == [])
        #expect(result.text == message)
    }
}
