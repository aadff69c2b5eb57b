import Foundation
import Testing
@testable import RunnerCapture

/// The drafter: what a capture's requests become (no file written; `InitCLITests` writes and
/// checks the plans, `MitmproxyInitTests` runs one made from a real capture against the lab).
struct PlanDraftTests {
    @Test("identical requests merge into the first; the count and entries are in its comment and the notes")
    func repeatsMerge() {
        var capture = DraftFixture()
        capture.add("GET", "https://api.example.com/v1/items?page=1")
        capture.add("GET", "https://api.example.com/v1/other")
        capture.add("GET", "https://api.example.com/v1/items?page=1")
        capture.add("GET", "https://api.example.com/v1/items?page=2")
        let draft = capture.draft()
        #expect(draft.scenarios.map(\.name) == ["GET /v1/items", "GET /v1/other", "GET /v1/items (2)"])
        #expect(draft.scenarios[0].comments.first == "2 identical requests in the capture: entries 0, 2")
        #expect(draft.notes.contains("merged: 'GET /v1/items': entries 0, 2 (2 identical requests)"))
        #expect(draft.scenarios[2].url.planValue == "https://api.example.com/v1/items?page=2")
    }

    @Test("a redirect chain the app followed is one scenario expecting the final status; one it did not follow expects the 3xx")
    func redirectsFold() {
        var capture = DraftFixture()
        capture.add("POST", "https://api.example.com/start", body: "x=1", status: 302, responseHeaders: [("Location", "/middle")])
        capture.add("GET", "https://api.example.com/middle", status: 301, responseHeaders: [("location", "https://www.example.com/end")])
        capture.add("GET", "https://www.example.com/end", status: 200, responseHeaders: [("content-type", "text/html; charset=utf-8")], address: "203.0.113.20")
        capture.add("GET", "https://api.example.com/moved", status: 307, responseHeaders: [("location", "/elsewhere")])
        let draft = capture.draft()
        #expect(draft.scenarios.map(\.name) == ["POST /start", "GET /moved"])
        let folded = draft.scenarios[0]
        #expect(folded.expect.statuses == [200])
        #expect(folded.expect.mediaType == "text/html")
        #expect(folded.followRedirects == nil)
        #expect(folded.hosts == ["api.example.com", "www.example.com"])
        #expect(draft.notes.contains("folded: 'POST /start': entries 0 → 1 → 2 (2 redirects, final status 200)"))
        #expect(draft.scenarios[1].followRedirects == false)
        #expect(draft.scenarios[1].expect.statuses == [307])
        #expect(draft.addresses == [
            HostAddresses(host: "api.example.com", addresses: ["203.0.113.10"]),
            HostAddresses(host: "www.example.com", addresses: ["203.0.113.20"]),
        ])
    }

    @Test("headers as sent, minus what the transport writes; HTTP/2's cookies joined; a decoded body's content-encoding dropped")
    func headersFiltered() {
        var capture = DraftFixture()
        capture.add(
            "POST", "https://api.example.com/v1/items",
            headers: [
                (":authority", "api.example.com"), (":method", "POST"), ("user-agent", "Shop/5.1"), ("content-length", "7"),
                ("host", "api.example.com"), ("accept-encoding", "gzip, br"), ("connection", "keep-alive"),
                ("content-encoding", "gzip"), ("x-trace", "a"), ("x-trace", "b"), ("content-type", "application/json"),
            ],
            body: #"{"n":1}"#)
        let draft = capture.draft()
        let headers = draft.scenarios[0].headers.map { "\($0.name): \($0.value.planValue)" }
        #expect(headers == ["user-agent: Shop/5.1", "x-trace: a, b", "content-type: application/json"])
        #expect(draft.scenarios[0].body == .text(PlanText(#"{"n":1}"#)))
    }

    @Test("every secret becomes ${secret:HOST_FIELD}: credential headers, secret-named fields, JWTs anywhere")
    func secretsNamed() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        var capture = DraftFixture()
        capture.add(
            "POST", "https://api.example.com/v1/login?appKey=ak-123456&lang=en",
            headers: [("Authorization", "Basic dXNlcjpwYXNz"), ("x-api-key", "xk-abcdef"), ("content-type", "application/json"), ("x-request-id", "r1")],
            body: #"{"user":"probe","password":"hunter2!","accessToken":"\#(jwt)","n":1}"#)
        capture.add("GET", "https://api.example.com/v1/files/\(jwt)/meta", headers: [("Cookie", "sid=s3ss10n-v4lue; theme=dark")])
        capture.add(
            "POST", "https://api.example.com/v1/form", headers: [("content-type", "application/x-www-form-urlencoded")],
            body: "user=probe&pwd=p%40ss%20word&next=%2Fhome")
        let draft = capture.draft()
        #expect(draft.secrets.map(\.name) == [
            "API_EXAMPLE_COM_APPKEY", "API_EXAMPLE_COM_AUTHORIZATION", "API_EXAMPLE_COM_X_API_KEY", "API_EXAMPLE_COM_ACCESSTOKEN",
            "API_EXAMPLE_COM_PASSWORD", "API_EXAMPLE_COM_COOKIE", "API_EXAMPLE_COM_PWD",
        ])
        let login = try #require(draft.scenario("POST /v1/login"))
        #expect(login.url.planValue == "https://api.example.com/v1/login?appKey=${secret:API_EXAMPLE_COM_APPKEY}&lang=en")
        #expect(login.header("authorization") == "${secret:API_EXAMPLE_COM_AUTHORIZATION}")
        #expect(login.header("x-request-id") == "r1")
        #expect(login.body == .text(PlanText(pieces: [
            .literal(#"{"user":"probe","password":""#), .secret("API_EXAMPLE_COM_PASSWORD"), .literal(#"","accessToken":""#),
            .secret("API_EXAMPLE_COM_ACCESSTOKEN"), .literal(#"","n":1}"#),
        ])))
        // The JWT in the path is the same value: it keeps its name, and the scenario's name shows the name, not the token.
        let files = try #require(draft.scenarios.first { $0.method == "GET" })
        #expect(files.name == "GET /v1/files/{API_EXAMPLE_COM_ACCESSTOKEN}/meta")
        #expect(files.header("cookie") == "${secret:API_EXAMPLE_COM_COOKIE}")
        let form = try #require(draft.scenario("POST /v1/form"))
        #expect(form.body == .text(PlanText(pieces: [.literal("user=probe&pwd="), .secret("API_EXAMPLE_COM_PWD"), .literal("&next=%2Fhome")])))
        #expect(draft.secrets.first { $0.name == "API_EXAMPLE_COM_PWD" }?.form == "as the form carries it, percent-encoded")
        #expect(draft.secrets.first { $0.name == "API_EXAMPLE_COM_ACCESSTOKEN" }?.uses == [
            "JSON field accessToken of 'POST /v1/login'", "the URL's path of 'GET /v1/files/{API_EXAMPLE_COM_ACCESSTOKEN}/meta'",
        ])
    }

    @Test("the words of a field's name, split at punctuation and camelCase")
    func secretWords() {
        #expect(SecretField.words(of: "x-api-key") == ["x", "api", "key"])
        #expect(SecretField.words(of: "accessToken") == ["access", "token"])
        #expect(SecretField.words(of: "APIKey") == ["api", "key"])
        #expect(SecretField.words(of: "session_id2") == ["session", "id2"])
        #expect(SecretField.isSecret(name: "X-Auth-Token"))
        #expect(SecretField.isSecret(name: "client_secret"))
        #expect(!SecretField.isSecret(name: "keyword"))
        #expect(!SecretField.isSecret(name: "monkey"))
        #expect(!SecretField.isSecret(name: "x-request-id"))
        #expect(SecretNames.environmentName(host: "api.example.com", field: "Authorization") == "API_EXAMPLE_COM_AUTHORIZATION")
        #expect(SecretNames.environmentName(host: "10.0.0.1", field: "x-api-key") == "H_10_0_0_1_X_API_KEY")
    }

    @Test("a value an answer carried and a later request sent: a capture, ${capture:NAME} and after; a Set-Cookie goes by the jar")
    func flows() throws {
        var capture = DraftFixture()
        capture.add(
            "POST", "https://api.example.com/login", headers: [("content-type", "application/json")], body: #"{"user":"probe"}"#,
            responseHeaders: [("content-type", "application/json"), ("set-cookie", "sid=cookie-value-1234; Path=/; HttpOnly")],
            response: #"{"data":{"token":"tok-abcdef-0123456789","user":"probe"},"ok":true}"#)
        capture.add("GET", "https://api.example.com/unrelated", response: #"{"id":"unrelated-value-99"}"#)
        capture.add(
            "GET", "https://api.example.com/orders/tok-abcdef-0123456789?t=tok-abcdef-0123456789",
            headers: [("authorization", "Bearer tok-abcdef-0123456789"), ("cookie", "sid=cookie-value-1234")])
        let draft = capture.draft()
        let login = try #require(draft.scenario("POST /login"))
        #expect(login.captures == [DraftCapture(name: "token", source: .json("$.data.token"), secret: true)])
        #expect(login.expect.jsonKeys == ["$.data", "$.ok"])
        let orders = try #require(draft.scenarios.last)
        #expect(orders.name == "GET /orders/{token}")
        #expect(orders.after == "POST /login")
        #expect(orders.url.planValue == "https://api.example.com/orders/${capture:token}?t=${capture:token}")
        #expect(orders.header("authorization") == "Bearer ${capture:token}")
        #expect(orders.header("cookie") == nil)
        #expect(draft.secrets.isEmpty)
        #expect(draft.notes.contains("flow: 'GET /orders/{token}' after 'POST /login': cookie sid from 'POST /login' goes by the cookie jar"))
    }

    @Test("failed entries, other schemes, preflights and excluded hosts make no scenario; each is noted with why")
    func dropped() {
        var capture = DraftFixture()
        capture.add("GET", "https://api.example.com/ok")
        capture.add("GET", "https://api.example.com/broken", status: 0, address: nil, failure: .error("net::ERR_CONNECTION_REFUSED"))
        capture.add("GET", "https://api.example.com/lost", address: nil, failure: .noResponse)
        capture.add("GET", "wss://api.example.com/socket")
        capture.add("OPTIONS", "https://api.example.com/ok", headers: [("access-control-request-method", "POST")])
        capture.add("GET", "https://tracker.example.net/pixel")
        capture.add("GET", "https://api.example.com/analytics/hit")
        let draft = capture.draft(CaptureDraftOptions(excluded: ["tracker.*", "*/analytics/*"]))
        #expect(draft.scenarios.map(\.name) == ["GET /ok"])
        #expect(draft.notes.filter { $0.hasPrefix("dropped:") } == [
            "dropped: entry 1 (GET https://api.example.com/broken): failed: net::ERR_CONNECTION_REFUSED",
            "dropped: entry 2 (GET https://api.example.com/lost): no response recorded",
            "dropped: entry 3 (GET): not an http or https URL a plan can send",
            "dropped: entry 4 (OPTIONS https://api.example.com/ok): a CORS preflight, which the browser sends by itself",
            "dropped: entry 5 (GET https://tracker.example.net/pixel): excluded by --exclude tracker.*",
            "dropped: entry 6 (GET https://api.example.com/analytics/hit): excluded by --exclude */analytics/*",
        ])
    }

    @Test("bodies: short text inline, binary to a file byte for byte (or base64 without a folder); forms rebuilt from params")
    func bodies() throws {
        let binary = Data([0x0A, 0x03, 0x00, 0xFF, 0xFE, 0x10])
        var capture = DraftFixture()
        capture.add("POST", "https://api.example.com/pb", headers: [("content-type", "application/x-protobuf")], bodyBytes: binary)
        capture.add(
            "POST", "https://api.example.com/form", headers: [("content-type", "application/x-www-form-urlencoded")],
            params: [HARFormParameter(name: "q", value: "a b&c"), HARFormParameter(name: "n", value: "1")],
            mimeType: "application/x-www-form-urlencoded")
        capture.add(
            "POST", "https://api.example.com/charles", headers: [("content-type", "application/x-www-form-urlencoded")],
            params: [HARFormParameter(name: #"{"a":1}"#, value: "")])
        let draft = capture.draft()
        #expect(draft.scenarios[0].body == .file(name: "plan.yaml.bodies/001-post-pb.pb", bytes: binary))
        #expect(draft.scenarios[1].body == .text(PlanText("q=a%20b%26c&n=1")))
        #expect(draft.scenarios[2].body == .text(PlanText(#"{"a":1}"#)))
        #expect(capture.draft(CaptureDraftOptions()).scenarios[0].body == .base64(binary))
    }

    @Test("literal ${ in captured text is written $${, so the plan reads it back as sent")
    func dollarBraceEscaped() {
        var capture = DraftFixture()
        capture.add("POST", "https://api.example.com/t", headers: [("x-template", "${name}")], body: "hello ${who}")
        let scenario = capture.draft().scenarios[0]
        #expect(scenario.header("x-template") == "$${name}")
        #expect(scenario.body.map { if case .text(let text) = $0 { text.planValue } else { "" } } == "hello $${who}")
    }

    @Test("a secret inside a binary body cannot be written: that scenario, and those after it, are left out with why")
    func secretInBinaryBody() {
        var capture = DraftFixture()
        capture.add("GET", "https://api.example.com/a", headers: [("x-api-key", "key-0123456789")])
        var binary = Data([0x00, 0xFF])
        binary.append(Data("key-0123456789".utf8))
        capture.add(
            "POST", "https://api.example.com/pb", headers: [("content-type", "application/x-protobuf")], bodyBytes: binary,
            response: #"{"session":"srv-session-42abc"}"#)
        capture.add("GET", "https://api.example.com/b", headers: [("x-session", "srv-session-42abc")])
        let draft = capture.draft()
        #expect(draft.scenarios.map(\.name) == ["GET /a"])
        #expect(draft.notes.contains(
            "dropped: 'POST /pb': a secret inside a binary body, which a plan cannot carry without it in clear; write this scenario by hand"))
        #expect(draft.notes.contains("dropped: 'GET /b': it runs after 'POST /pb', which was dropped"))
        #expect(draft.secrets.map(\.name) == ["API_EXAMPLE_COM_X_API_KEY"])
    }

    /// fuzz/regressions/har/draft-*: what a capture tool may write but no plan can hold is
    /// noted and left out, never a plan that fails `runner check`.
    @Test("a recorded address, status, host or method no plan takes is noted and left out (found by the har fuzz target)")
    func valuesNoPlanTakes() {
        var capture = DraftFixture()
        capture.add("GET", "https://api.example.com/a", address: "2620:0:860:ed1a::12345")
        capture.add("GET", "https://api.example.com/b", status: 706)
        capture.add("GET", "https://api.exa=ple.com/c")
        capture.add("GE,T", "https://api.example.com/d")
        let draft = capture.draft()
        #expect(draft.scenarios.map(\.name) == ["GET /a"])
        #expect(draft.scenarios[0].domains == "system")
        #expect(draft.addresses.isEmpty)
        #expect(draft.notes == [
            "dropped: entry 1 (GET https://api.example.com/b): the recorded status 706 is not an HTTP status",
            "dropped: entry 2 (GET https://api.exa=ple.com/c): the host is not a name a plan takes (letters, digits, '-', '_' and dots)",
            "dropped: entry 3 (https://api.example.com/d): the method is not an HTTP method name",
            "address: entry 0: '2620:0:860:ed1a::12345' (serverIPAddress) is not an IP address; left out of the map",
        ])
    }

    @Test("the loader has the last word: a scenario it refuses is left out with its message; none left, nothing to write")
    func loaderRefusals() throws {
        var capture = DraftFixture()
        capture.add("GET", "https://api.example.com/ok")
        capture.add("GET", "https://api.example.com:0/bad")
        var draft = capture.draft()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("draft-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("plan.yaml").path
        let yaml = try DraftCheck.settle(&draft, settings: DraftPlanSettings(), path: path)
        #expect(draft.scenarios.map(\.name) == ["GET /ok"])
        #expect(yaml.contains("- name: GET /ok") && !yaml.contains("/bad"))
        #expect(draft.notes.contains { $0.hasPrefix("dropped: 'GET /bad': a plan cannot hold what the capture recorded: ") }, "\(draft.notes)")

        var nothing = DraftFixture()
        nothing.add("GET", "https://api.example.com:0/bad")
        var empty = nothing.draft()
        #expect(try DraftCheck.settle(&empty, settings: DraftPlanSettings(), path: path) == "")
        #expect(empty.scenarios.isEmpty)
    }
}
