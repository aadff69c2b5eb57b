import Foundation
import RunnerLab
import Testing

/// `/session/login` and `/session/me`, checked with curl: a login opens a session (a bearer token
/// and a cookie) that only the address which served it accepts, as a server-side session lives
/// on one server.
@Suite("Lab: login and session", .timeLimit(.minutes(2)))
struct SessionTests {
    static let credentials = #"{"user":"probe","password":"\#(LabSession.password)"}"#

    static func url(_ lab: Lab, _ address: String, _ path: String) -> String {
        "https://\(authority(address, lab.httpsPort))\(path)"
    }

    static func login(_ lab: Lab, on address: String, body: String = credentials, extra: [String] = []) async throws
        -> CommandResult
    {
        try await Command.curl(
            ["--cacert", lab.caFile, "--dump-header", "/dev/stderr", "--json", body] + extra
                + [url(lab, address, "/session/login")])
    }

    @Test(arguments: HTTPFlavour.allCases)
    func aLoginOpensASessionForItsAddressOnly(_ flavour: HTTPFlavour) async throws {
        let lab = try await StatelessLab.get()
        let login = try await Self.login(lab, on: LabAddress.primary, extra: [flavour.rawValue])
        #expect(login.exitCode == 0, "\(login.errorOutput)")
        let answer = try login.jsonObject()
        let token = try #require(answer["token"] as? String)
        #expect(token.count == 32)
        #expect(answer["user"] as? String == "probe")
        #expect(answer["address"] as? String == LabAddress.primary)
        let cookie = try #require(
            login.errorOutput.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: lab_session=") })
        #expect(cookie.hasSuffix("; Path=/; HttpOnly"))

        let byToken = try await Command.curl(
            [flavour.rawValue, "--cacert", lab.caFile, "-H", "Authorization: Bearer \(token)",
             Self.url(lab, LabAddress.primary, "/session/me")])
        #expect(byToken.text == #"{"user":"probe","via":"token","address":"127.0.0.2"}"#)

        let cookieValue = cookie.split(separator: ";")[0].dropFirst("set-cookie: ".count)
        let byCookie = try await Command.curl(
            [flavour.rawValue, "--cacert", lab.caFile, "--cookie", String(cookieValue),
             Self.url(lab, LabAddress.primary, "/session/me")])
        #expect(byCookie.text == #"{"user":"probe","via":"cookie","address":"127.0.0.2"}"#)

        // The replica serves the same certificate (for api.lab.test) and endpoints, but not this session.
        let elsewhere = try await Command.curl(
            [flavour.rawValue, "--cacert", lab.caFile, "--dump-header", "/dev/stderr", "-H", "Authorization: Bearer \(token)",
             "--resolve", "api.lab.test:\(lab.httpsPort):\(LabAddress.replica)", "https://api.lab.test:\(lab.httpsPort)/session/me"])
        #expect(elsewhere.heads.last?.status == 401)
        #expect(elsewhere.text == #"{"error":"this session belongs to 127.0.0.2, not to 127.0.0.5"}"#)
    }

    @Test("refusals: a wrong password, an unknown token, no session, a body that is not a login, GET")
    func refusals() async throws {
        let lab = try await StatelessLab.get()
        let wrong = try await Self.login(lab, on: LabAddress.primary, body: #"{"user":"probe","password":"nope"}"#)
        #expect(wrong.heads.last?.status == 401)
        #expect(wrong.text == #"{"error":"wrong password for user probe"}"#)
        #expect(!wrong.errorOutput.lowercased().contains("set-cookie"))

        let malformed = try await Self.login(lab, on: LabAddress.primary, body: #"["probe"]"#)
        #expect(malformed.heads.last?.status == 400)

        let get = try await Command.curl(
            ["--cacert", lab.caFile, "--dump-header", "/dev/stderr", Self.url(lab, LabAddress.primary, "/session/login")])
        #expect(get.heads.last?.status == 405)
        #expect(get.errorOutput.lowercased().contains("allow: post"))

        let unknown = try await Command.curl(
            ["--cacert", lab.caFile, "--dump-header", "/dev/stderr", "-H", "Authorization: Bearer 0123",
             Self.url(lab, LabAddress.primary, "/session/me")])
        #expect(unknown.heads.last?.status == 401)
        #expect(unknown.text == #"{"error":"unknown bearer token"}"#)

        let none = try await Command.curl(["--cacert", lab.caFile, Self.url(lab, LabAddress.primary, "/session/me")])
        #expect(none.text == #"{"error":"no session: send the login's token or its cookie"}"#)
    }

    @Test func loginsAreCounted() async throws {
        try await withLab { lab in
            #expect(lab.loginsAccepted == 0)
            _ = try await Self.login(lab, on: LabAddress.primary)
            _ = try await Self.login(lab, on: LabAddress.primary, body: #"{"user":"probe","password":"nope"}"#)
            #expect(lab.loginsAccepted == 1)
        }
    }
}
