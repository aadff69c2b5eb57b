import Foundation
import RunnerLab
import Testing

@Suite(.timeLimit(.minutes(3))) struct RedirectTests {
    static let redirectBody = "redirect body — must not be reported"

    /// curl, not following redirects, against the lab's primary address over `flavour`.
    static func fetch(_ lab: Lab, _ flavour: HTTPFlavour, _ path: String, _ extra: [String] = []) async throws
        -> CommandResult
    {
        try await Command.curl(
            [flavour.rawValue, "--cacert", lab.caFile, "--dump-header", "/dev/stderr"] + extra
                + ["https://\(LabAddress.primary):\(lab.httpsPort)\(path)"])
    }

    @Test(arguments: [301, 302, 303, 307, 308], HTTPFlavour.allCases)
    func answersTheCodeWithTheLocationAsGiven(_ code: Int, _ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.fetch(lab, flavour, "/redirect/\(code)?to=/echo%3Fhop%3D1")
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        let head = try #require(result.heads.last, "\(result.errorOutput)")
        #expect(head.statusLine.hasPrefix(flavour.statusPrefix + "\(code)"), "\(head)")
        #expect(head.values("location") == ["/echo?hop=1"])
        #expect(head.values("set-cookie").isEmpty)
        #expect(result.text == Self.redirectBody)
    }

    @Test func anAbsoluteLocationIsKeptVerbatim() async throws {
        let lab = try await StatelessLab.get()
        let target = "http://api.lab.test:1/x?a=1&b=two%20words"
        let encoded = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let result = try await Self.fetch(lab, .http1, "/redirect/301?to=\(encoded)")
        #expect(result.heads.last?.status == 301)
        #expect(result.heads.last?.values("location") == [target])
    }

    @Test(arguments: [
        (
            "/redirect/300?to=/echo",
            "bad request: /redirect/{code} wants one of [301, 302, 303, 307, 308], got \"300\"\n"
        ),
        ("/redirect/302", "bad request: /redirect/{code} wants ?to=URL-or-path\n"),
        ("/redirect/302?to=/a%0D%0AX:1", "bad request: the to= target contains a line break\n"),
        ("/redirect-chain/x", "bad request: /redirect-chain/{n} wants 0-100 redirects, got \"x\"\n"),
    ])
    func malformedRedirectsAreRefused(_ path: String, _ message: String) async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.fetch(lab, .http2, path)
        #expect(result.heads.last?.status == 400, "\(result.errorOutput)")
        #expect(result.text == message)
    }

    @Test(arguments: HTTPFlavour.allCases)
    func aChainCountsDownToDone(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let first = try await Self.fetch(lab, flavour, "/redirect-chain/3")
        #expect(first.heads.last?.status == 302)
        #expect(first.heads.last?.values("location") == ["/redirect-chain/2"])
        #expect(first.text == Self.redirectBody)

        let followed = try await Self.fetch(
            lab, flavour, "/redirect-chain/3", ["--location", "--write-out", "\n%{num_redirects}"])
        #expect(followed.exitCode == 0, "\(followed.errorOutput)")
        #expect(followed.heads.map(\.status) == [302, 302, 302, 200])
        #expect(followed.text == "chain done\n3", "only the last body, then the hop count")
    }

    @Test func aLoopRunsIntoTheClientsLimit() async throws {
        let lab = try await StatelessLab.get()
        let plain = try await Self.fetch(lab, .http2, "/redirect-loop")
        #expect(plain.heads.last?.status == 302)
        #expect(plain.heads.last?.values("location") == ["/redirect-loop"])

        let followed = try await Self.fetch(lab, .http2, "/redirect-loop", ["--location", "--max-redirs", "4"])
        #expect(followed.exitCode == 47, "curl: too many redirects; \(followed.errorOutput)")
        #expect(followed.heads.count >= 4)
        #expect(followed.heads.allSatisfy { $0.status == 302 && $0.values("location") == ["/redirect-loop"] })
    }

    @Test func aRedirectSetsCookiesTheNextRequestCarries() async throws {
        let lab = try await StatelessLab.get()
        let path =
            "/redirect/302?to=/cookies&set-cookie=session%3Dabc%3B%20Path%3D%2F"
            + "&set-cookie=theme%3Ddark%3B%20Path%3D%2F"
        let result = try await Self.fetch(lab, .http2, path, ["--location", "--cookie", ""])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.heads.first?.values("set-cookie") == ["session=abc; Path=/", "theme=dark; Path=/"])
        #expect(result.text == #"{"cookies":{"session":"abc","theme":"dark"}}"#)
    }

    @Test(arguments: [307, 308])
    func aPostBodyIsReadBeforeTheRedirectSoTheConnectionCarriesOn(_ code: Int) async throws {
        let lab = try await StatelessLab.get()
        // Over 1 MB, so curl sends it after the interim 100; left unread, it would poison the connection.
        let body = try await bodyFile(bytes: 1_500_000)
        defer { try? FileManager.default.removeItem(at: body.url) }

        let result = try await Self.fetch(
            lab, .http1, "/redirect/\(code)?to=/echo",
            ["--location", "--expect100-timeout", "30", "--data-binary", "@\(body.url.path)"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.heads.map(\.status) == [100, code, 100, 200])
        let echo = try result.jsonObject()
        #expect(echo["method"] as? String == "POST", "\(code) keeps the method")
        #expect(echo["body_sha256"] as? String == body.sha256, "and the body")
        #expect(echo["request_index"] as? Int == 2, "on the same connection")
    }
}
