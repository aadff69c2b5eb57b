import Foundation
import RunnerPlan
import Testing

@testable import RunnerEngine

/// The fixed instant every cookie test runs at: 2023-11-14T22:13:20Z.
private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let future = "Wed, 01 Jan 2100 00:00:00 GMT"
private let past = "Sun, 06 Nov 1994 08:49:37 GMT"

/// A `CookieURL` from "scheme://host/path?query" (brackets and query dropped, as the runner does).
private func url(_ text: String) -> CookieURL {
    let secure = text.hasPrefix("https://")
    let afterScheme = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
    let authority = afterScheme.count > 2 ? String(afterScheme[2]) : ""
    let hostEnd = authority.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? authority.endIndex
    var host = String(authority[..<hostEnd])
    if host.hasPrefix("[") { host = String(host.dropFirst().prefix { $0 != "]" }) }
    var path = String(authority[hostEnd...].prefix { $0 != "?" })
    if path.isEmpty { path = "/" }
    return CookieURL(secure: secure, host: host, path: path)
}

/// A jar holding what `headers`, received from `from`, store at `at`.
private func jar(_ headers: [String], from: String, at: Date = now) -> CookieJar {
    var jar = CookieJar()
    jar.store(setCookieHeaders: headers, requestURL: url(from), now: at)
    return jar
}

private func header(_ jar: CookieJar, to: String, at: Date = now) -> String? {
    jar.cookieHeader(for: url(to), now: at)
}

// MARK: - Domain

@Suite("Cookie jar: Domain and host-only", .timeLimit(.minutes(3)))
struct CookieJarDomainTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let setCookie: String
        let request: String
        let sent: Bool
        var testDescription: String { "\(setCookie) → \(request): \(sent ? "sent" : "not sent")" }
    }

    /// Set while talking to https://api.example.com/.
    static let cases: [Case] = [
        // Host-only: the very host, nothing else.
        Case(setCookie: "id=1", request: "https://api.example.com/", sent: true),
        Case(setCookie: "id=1", request: "https://API.Example.COM/", sent: true),
        Case(setCookie: "id=1", request: "https://www.example.com/", sent: false),
        Case(setCookie: "id=1", request: "https://example.com/", sent: false),
        Case(setCookie: "id=1", request: "https://x.api.example.com/", sent: false),
        // Domain=example.com: the domain and all its subdomains.
        Case(setCookie: "id=1; Domain=example.com", request: "https://api.example.com/", sent: true),
        Case(setCookie: "id=1; Domain=example.com", request: "https://www.example.com/", sent: true),
        Case(setCookie: "id=1; Domain=example.com", request: "https://example.com/", sent: true),
        Case(setCookie: "id=1; Domain=example.com", request: "https://a.b.example.com/", sent: true),
        Case(setCookie: "id=1; Domain=example.com", request: "https://notexample.com/", sent: false),
        Case(setCookie: "id=1; Domain=example.com", request: "https://example.com.evil.net/", sent: false),
        Case(setCookie: "id=1; Domain=example.com", request: "https://example.org/", sent: false),
        // The leading dot is ignored, and the Domain's case too.
        Case(setCookie: "id=1; Domain=.example.com", request: "https://www.example.com/", sent: true),
        Case(setCookie: "id=1; Domain=.example.com", request: "https://example.com/", sent: true),
        Case(setCookie: "id=1; Domain=EXAMPLE.Com", request: "https://www.example.com/", sent: true),
        // Domain equal to the request host: still shared with its subdomains.
        Case(setCookie: "id=1; Domain=api.example.com", request: "https://x.api.example.com/", sent: true),
        Case(setCookie: "id=1; Domain=api.example.com", request: "https://www.example.com/", sent: false),
    ]

    @Test("who receives a cookie set by api.example.com", arguments: cases)
    func receivers(_ test: Case) {
        let jar = jar([test.setCookie], from: "https://api.example.com/")
        #expect(header(jar, to: test.request) == (test.sent ? "id=1" : nil))
    }

    @Test("host-only and Domain cookies are stored as such")
    func storedFields() {
        let jar = jar(["a=1", "b=2; Domain=.Example.com"], from: "https://Api.Example.com/")
        #expect(jar.cookies.map(\.domain) == ["api.example.com", "example.com"])
        #expect(jar.cookies.map(\.hostOnly) == [true, false])
    }

    @Test(
        "a Domain that does not cover the request host is ignored",
        arguments: [
            "other.com",  // unrelated
            "www.example.com",  // a sibling
            "x.api.example.com",  // a subdomain of the request host
            "pi.example.com",  // a suffix, but not at a label boundary
            "ample.com",
            "..example.com",  // one leading dot only is stripped
            "com",  // a TLD (no public-suffix list: no inner dot, not the host)
            ".com",
        ])
    func domainNotMatching(_ domain: String) {
        let jar = jar(["id=1; Domain=\(domain)"], from: "https://api.example.com/")
        #expect(jar.cookies.isEmpty)
        #expect(header(jar, to: "https://api.example.com/") == nil)
    }

    @Test("a dotless Domain equal to the request host gives a host-only cookie")
    func dotlessDomainEqualToHost() throws {
        let jar = jar(["id=1; Domain=localhost"], from: "http://localhost/")
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == "localhost" && cookie.hostOnly)
        #expect(header(jar, to: "http://localhost/") == "id=1")
        #expect(header(jar, to: "http://a.localhost/") == nil)
    }

    @Test("an empty Domain attribute is ignored: the cookie is host-only", arguments: ["Domain=", "Domain", "Domain=."])
    func emptyDomain(_ attribute: String) throws {
        let jar = jar(["id=1; \(attribute)"], from: "https://api.example.com/")
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == "api.example.com" && cookie.hostOnly)
    }

    @Test("the last Domain attribute wins")
    func lastDomainWins() throws {
        let jar = jar(["id=1; Domain=example.com; Domain=api.example.com"], from: "https://api.example.com/")
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == "api.example.com" && !cookie.hostOnly)
        #expect(header(jar, to: "https://www.example.com/") == nil)
    }

    @Test("an empty Domain after a valid one does not undo it")
    func emptyDomainAfterValid() throws {
        let jar = jar(["id=1; Domain=example.com; Domain="], from: "https://api.example.com/")
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == "example.com" && !cookie.hostOnly)
    }
}

// MARK: - IP literals and the original host

@Suite("Cookie jar: IP literals and the original host", .timeLimit(.minutes(3)))
struct CookieJarHostTests {
    @Test("a cookie set while talking to api.example.com goes back to api.example.com only, whatever IP served it")
    func originalHostOnly() {
        // The runner sent the request to http://203.0.113.10/login with Host: api.example.com; the jar
        // is told the original host and never sees the IP.
        var jar = CookieJar()
        jar.store(
            setCookieHeaders: ["session=abc; Path=/", "pref=dark; Domain=api.example.com"],
            requestURL: CookieURL(secure: false, host: "api.example.com", path: "/login"), now: now)
        #expect(header(jar, to: "http://api.example.com/home") == "session=abc; pref=dark")
        #expect(header(jar, to: "https://api.example.com/home") == "session=abc; pref=dark")
        #expect(header(jar, to: "http://other.example.com/home") == nil)
        #expect(header(jar, to: "http://203.0.113.10/home") == nil)
        #expect(jar.cookies.allSatisfy { $0.domain == "api.example.com" })
    }

    @Test("cookies set on one redirect hop are sent on the next")
    func redirectHop() {
        var jar = CookieJar()
        jar.store(
            setCookieHeaders: ["sso=t0k; Domain=example.com; Path=/; Secure"],
            requestURL: url("https://login.example.com/start"), now: now)
        let nextHop = now.addingTimeInterval(0.2)
        #expect(header(jar, to: "https://app.example.com/welcome", at: nextHop) == "sso=t0k")
    }

    struct IPCase: CustomTestStringConvertible, Sendable {
        let host: String
        let setCookie: String
        let stored: Bool
        var testDescription: String { "\(host): \(setCookie)" }
    }

    static let ipCases: [IPCase] = [
        IPCase(host: "203.0.113.10", setCookie: "id=1", stored: true),
        IPCase(host: "203.0.113.10", setCookie: "id=1; Domain=203.0.113.10", stored: true),
        IPCase(host: "203.0.113.10", setCookie: "id=1; Domain=.203.0.113.10", stored: true),
        IPCase(host: "203.0.113.10", setCookie: "id=1; Domain=0.113.10", stored: false),
        IPCase(host: "203.0.113.10", setCookie: "id=1; Domain=113.10", stored: false),
        IPCase(host: "203.0.113.10", setCookie: "id=1; Domain=example.com", stored: false),
        IPCase(host: "2001:db8::1", setCookie: "id=1", stored: true),
        IPCase(host: "2001:db8::1", setCookie: "id=1; Domain=2001:db8::1", stored: true),
        IPCase(host: "2001:db8::1", setCookie: "id=1; Domain=db8::1", stored: false),
    ]

    @Test("an IP-literal request host gets host-only cookies only", arguments: ipCases)
    func ipLiteralHost(_ test: IPCase) throws {
        let jar = jar([test.setCookie], from: "http://\(test.host.contains(":") ? "[\(test.host)]" : test.host)/")
        guard test.stored else {
            #expect(jar.cookies.isEmpty)
            return
        }
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == test.host && cookie.hostOnly)
    }

    @Test("a host-only cookie of an IP is not sent to hosts that merely end like it")
    func ipHostOnly() {
        let jar = jar(["id=1"], from: "http://10.0.0.1/")
        #expect(header(jar, to: "http://10.0.0.1/") == "id=1")
        #expect(header(jar, to: "http://110.0.0.1/") == nil)
        #expect(header(jar, to: "http://10.0.0.10/") == nil)
    }

    @Test(
        "IP literal detection",
        arguments: [
            ("203.0.113.10", true), ("127.1", true), ("2001:db8::1", true), ("::1", true),
            ("api.example.com", false), ("localhost", false), ("1.example.com", false), ("example.123x", false),
        ])
    func ipLiteralDetection(_ host: String, _ isIP: Bool) {
        #expect(CookieMatching.isIPLiteral(host) == isIP)
    }
}

// MARK: - Path

@Suite("Cookie jar: Path", .timeLimit(.minutes(3)))
struct CookieJarPathTests {
    @Test(
        "the default path comes from the request path",
        arguments: [
            ("/", "/"), ("", "/"), ("/login", "/"), ("/a/", "/a"), ("/a/b", "/a"),
            ("/a/b/c.html", "/a/b"), ("//x", "/"), ("/a/b?next=/c/d", "/a"), ("relative/path", "/"),
        ])
    func defaultPath(_ requestPath: String, _ expected: String) throws {
        var jar = CookieJar()
        jar.store(
            setCookieHeaders: ["id=1"], requestURL: CookieURL(secure: true, host: "example.com", path: requestPath),
            now: now)
        #expect(try #require(jar.cookies.first).path == expected)
    }

    /// The path a request's URL gives the jar: before the first `?`, "/" when empty; read in
    /// bytes for ASCII, by characters otherwise (a `?` a combining mark joins is no separator).
    @Test(
        "the request path of a plan URL",
        arguments: [
            ("/", "/"), ("/session/me?n=1", "/session/me"), ("/a?b?c", "/a"), ("?x", "/"), ("", "/"), ("/a/b", "/a/b"),
            ("/é?x", "/é"), ("/a?\u{301}b?c", "/a?\u{301}b"),
        ])
    func requestPathOfAPlanURL(_ pathAndQuery: String, _ expected: String) {
        let url = PlanURL(scheme: .https, host: "example.com", explicitPort: nil, pathAndQuery: pathAndQuery)
        #expect(CookieURL(url) == CookieURL(secure: true, host: "example.com", path: expected))
    }

    @Test(
        "the Path attribute, or the default path when it is empty or relative",
        arguments: [
            ("Path=/docs", "/docs"), ("path=/docs/", "/docs/"), ("Path=/", "/"), ("Path=docs", "/a"),
            ("Path=", "/a"), ("Path", "/a"), ("Path=/x; Path=/y", "/y"), ("Path=/x; Path=y", "/a"),
            ("Path = /spaced ", "/spaced"),
        ])
    func pathAttribute(_ attribute: String, _ expected: String) throws {
        let jar = jar(["id=1; \(attribute)"], from: "https://example.com/a/b")
        #expect(try #require(jar.cookies.first).path == expected)
    }

    @Test(
        "path matching",
        arguments: [
            ("/a", "/a", true), ("/a", "/a/", true), ("/a", "/a/b", true), ("/a", "/a/b/c", true),
            ("/a", "/ab", false), ("/a", "/", false), ("/a", "/A", false), ("/a", "/b/a", false),
            ("/a/", "/a/", true), ("/a/", "/a/b", true), ("/a/", "/a", false),
            ("/", "/", true), ("/", "/anything/at/all", true),
        ])
    func pathMatching(_ cookiePath: String, _ requestPath: String, _ matches: Bool) {
        let jar = jar(["id=1; Path=\(cookiePath)"], from: "https://example.com/")
        #expect(header(jar, to: "https://example.com\(requestPath)") == (matches ? "id=1" : nil))
        #expect(CookieMatching.pathMatches(requestPath: requestPath, cookiePath: cookiePath) == matches)
    }
}

// MARK: - Secure, HttpOnly, SameSite

@Suite("Cookie jar: Secure and other flags", .timeLimit(.minutes(3)))
struct CookieJarFlagTests {
    @Test("a Secure cookie is sent over https only")
    func secureOnlyOverHTTPS() {
        let jar = jar(["s=1; Secure", "p=2"], from: "https://example.com/")
        #expect(header(jar, to: "https://example.com/") == "s=1; p=2")
        #expect(header(jar, to: "http://example.com/") == "p=2")
    }

    @Test("a Secure cookie received over http is kept, and sent over https only (RFC 6265)")
    func secureOverHTTP() {
        let jar = jar(["s=1; secure"], from: "http://example.com/")
        #expect(jar.cookies.first?.secure == true)
        #expect(header(jar, to: "http://example.com/") == nil)
        #expect(header(jar, to: "https://example.com/") == "s=1")
    }

    @Test("HttpOnly is kept, and does not stop the cookie; SameSite is ignored")
    func httpOnlyAndSameSite() throws {
        let jar = jar(["h=1; HttpOnly; SameSite=Strict", "n=2; SameSite=None"], from: "https://example.com/")
        #expect(jar.cookies.map(\.httpOnly) == [true, false])
        #expect(header(jar, to: "https://example.com/") == "h=1; n=2")
    }

    @Test("attribute names are case-insensitive and surrounded by optional whitespace")
    func attributeNames() throws {
        let jar = jar(
            ["  name  =  some value  ;PATH=/x ;  DOMAIN = Example.COM;SECURE;httponly ; MAX-AGE=60"],
            from: "https://www.example.com/")
        let cookie = try #require(jar.cookies.first)
        #expect(
            cookie
                == StoredCookie(
                    name: "name", value: "some value", domain: "example.com", hostOnly: false, path: "/x",
                    secure: true, httpOnly: true, expires: now.addingTimeInterval(60), creation: now))
    }

    @Test("values are kept byte for byte: quotes, '=' and empty values")
    func values() {
        let jar = jar([#"q="a b""#, "eq=x=y==", "empty=", "tab=a\tb"], from: "https://example.com/")
        #expect(jar.cookies.map(\.value) == [#""a b""#, "x=y==", "", "a\tb"])
        #expect(header(jar, to: "https://example.com/") == #"q="a b"; eq=x=y==; empty=; tab=a\#tb"#)
    }
}

// MARK: - Expiry

@Suite("Cookie jar: Expires and Max-Age", .timeLimit(.minutes(3)))
struct CookieJarExpiryTests {
    @Test("Max-Age sets the expiry from now; the cookie is gone once it passes")
    func maxAge() throws {
        let jar = jar(["id=1; Max-Age=60"], from: "https://example.com/")
        #expect(try #require(jar.cookies.first).expires == now.addingTimeInterval(60))
        #expect(header(jar, to: "https://example.com/", at: now.addingTimeInterval(59)) == "id=1")
        #expect(header(jar, to: "https://example.com/", at: now.addingTimeInterval(60)) == nil)
    }

    @Test("Max-Age of zero or less deletes the cookie", arguments: ["Max-Age=0", "Max-Age=-1", "max-age=-99999"])
    func maxAgeDeletes(_ attribute: String) {
        var jar = jar(["id=1", "other=2"], from: "https://example.com/")
        jar.store(setCookieHeaders: ["id=gone; \(attribute)"], requestURL: url("https://example.com/"), now: now)
        #expect(jar.cookies.map(\.name) == ["other"])
        #expect(header(jar, to: "https://example.com/") == "other=2")
    }

    @Test(
        "Max-Age beats Expires, in either order",
        arguments: [
            ("Expires=\(past); Max-Age=60", true), ("Max-Age=60; Expires=\(past)", true),
            ("Expires=\(future); Max-Age=0", false), ("Max-Age=0; Expires=\(future)", false),
        ])
    func maxAgeBeatsExpires(_ attributes: String, _ kept: Bool) {
        let jar = jar(["id=1; \(attributes)"], from: "https://example.com/")
        #expect(jar.cookies.map(\.expires) == (kept ? [now.addingTimeInterval(60)] : []))
    }

    @Test(
        "a malformed Max-Age is ignored, and Expires applies",
        arguments: ["Max-Age=abc", "Max-Age=1e3", "Max-Age=+5", "Max-Age=", "Max-Age=- 5", "Max-Age=5s"])
    func malformedMaxAge(_ attribute: String) throws {
        let jar = jar(["id=1; Expires=\(future); \(attribute)"], from: "https://example.com/")
        #expect(try #require(jar.cookies.first).expires == Date(timeIntervalSince1970: 4_102_444_800))
    }

    @Test("a huge Max-Age saturates instead of overflowing")
    func hugeMaxAge() throws {
        let jar = jar(["id=1; Max-Age=999999999999999999999999999999"], from: "https://example.com/")
        #expect(try #require(jar.cookies.first).expires == .distantFuture)
        #expect(header(jar, to: "https://example.com/", at: now.addingTimeInterval(86_400 * 365 * 100)) == "id=1")
    }

    @Test("an Expires in the past deletes the held cookie")
    func expiresInThePastDeletes() {
        var jar = jar(["id=1; Expires=\(future)"], from: "https://example.com/")
        #expect(header(jar, to: "https://example.com/") == "id=1")
        jar.store(setCookieHeaders: ["id=; Expires=\(past)"], requestURL: url("https://example.com/"), now: now)
        #expect(jar.cookies.isEmpty)
        #expect(header(jar, to: "https://example.com/") == nil)
    }

    @Test("deleting needs the same (name, domain, path): another path deletes nothing")
    func deleteNeedsSameKey() {
        var jar = jar(["id=1; Path=/a"], from: "https://example.com/")
        jar.store(setCookieHeaders: ["id=; Max-Age=0; Path=/b"], requestURL: url("https://example.com/"), now: now)
        #expect(jar.cookies.map(\.path) == ["/a"])
    }

    @Test("an Expires that does not parse is ignored: a session cookie")
    func unparsableExpires() throws {
        let jar = jar(["id=1; Expires=tomorrow"], from: "https://example.com/")
        #expect(try #require(jar.cookies.first).expires == nil)
    }

    @Test("the last valid Expires wins")
    func lastExpiresWins() throws {
        let jar = jar(["id=1; Expires=\(past); Expires=\(future); Expires=nonsense"], from: "https://example.com/")
        #expect(try #require(jar.cookies.first).expires == Date(timeIntervalSince1970: 4_102_444_800))
    }

    @Test("storing evicts cookies that expired in the meantime")
    func evictionOnStore() {
        var jar = jar(["short=1; Max-Age=10", "long=2; Max-Age=1000"], from: "https://example.com/")
        jar.store(setCookieHeaders: [], requestURL: url("https://example.com/"), now: now.addingTimeInterval(11))
        #expect(jar.cookies.map(\.name) == ["long"])
    }
}

// MARK: - Dates

@Suite("Cookie dates (RFC 6265 §5.1.1)", .timeLimit(.minutes(3)))
struct CookieDateTests {
    static let nov6 = Date(timeIntervalSince1970: 784_111_777)

    @Test(
        "formats servers send",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", nov6),  // RFC 1123
            ("Sunday, 06-Nov-94 08:49:37 GMT", nov6),  // RFC 850
            ("Sun Nov  6 08:49:37 1994", nov6),  // asctime
            ("Sun, 06-Nov-1994 08:49:37 GMT", nov6),  // Netscape
            ("sun, 06 nov 1994 08:49:37 gmt", nov6),
            ("06 November 1994 08:49:37", nov6),
            ("Nov 6 1994 8:49:37", nov6),
            ("1994 Nov 6 08:49:37", nov6),
            ("Sun, 06 Nov 1994 08:49:37 +0200", nov6),  // zones are ignored
            ("Sun,06-Nov-1994 08:49:37Z", nov6),
            ("Thu, 01 Jan 1970 00:00:00 GMT", Date(timeIntervalSince1970: 0)),
            ("Thu, 01-Jan-70 00:00:00 GMT", Date(timeIntervalSince1970: 0)),
            ("Tue, 01-Jan-69 00:00:00 GMT", Date(timeIntervalSince1970: 3_124_224_000)),  // 69 → 2069
            ("29 Feb 2024 00:00:00", Date(timeIntervalSince1970: 1_709_164_800)),
            ("29 Feb 2000 12:00:00", Date(timeIntervalSince1970: 951_825_600)),
            ("1 Jan 1601 00:00:00", Date(timeIntervalSince1970: -11_644_473_600)),
            ("Fri, 31 Dec 9999 23:59:59 GMT", Date(timeIntervalSince1970: 253_402_300_799)),
        ])
    func parses(_ text: String, _ expected: Date) {
        #expect(CookieDate.parse(text) == expected)
    }

    @Test(
        "not dates",
        arguments: [
            "", "tomorrow", "Sun, 06 Nov 1994", "06 Nov 1994 08:49", "Nov 1994 08:49:37",
            "30 Feb 2020 00:00:00", "29 Feb 2023 00:00:00", "29 Feb 1900 00:00:00", "31 Apr 2020 00:00:00",
            "32 Jan 2020 00:00:00", "0 Jan 2020 00:00:00", "1 Jan 1600 00:00:00",
            "1 Jan 2020 24:00:00", "1 Jan 2020 23:60:00", "1 Jan 2020 23:59:60",
            "1 Jan 20200 00:00:00", "123 Jan 2020 00:00:00", "1 Foo 2020 00:00:00",
        ])
    func rejects(_ text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    @Test("each format, through a Set-Cookie header", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func throughTheJar(_ date: String) throws {
        // Relative to a `now` before 1994, so the cookie is still alive.
        let before = Date(timeIntervalSince1970: 700_000_000)
        let jar = jar(["id=1; Expires=\(date)"], from: "https://example.com/", at: before)
        #expect(try #require(jar.cookies.first).expires == Self.nov6)
        #expect(header(jar, to: "https://example.com/", at: before) == "id=1")
        #expect(header(jar, to: "https://example.com/", at: Self.nov6) == nil)
    }
}

// MARK: - Replacement and ordering

@Suite("Cookie jar: replacement and order", .timeLimit(.minutes(3)))
struct CookieJarOrderTests {
    @Test("a cookie with the same (name, domain, path) replaces the older, keeping its creation time and slot")
    func replacement() throws {
        var jar = jar(["a=1", "b=2"], from: "https://example.com/")
        let later = now.addingTimeInterval(5)
        jar.store(setCookieHeaders: ["a=3; Secure"], requestURL: url("https://example.com/"), now: later)
        #expect(jar.cookies.map(\.name) == ["a", "b"])
        let replaced = try #require(jar.cookies.first)
        #expect(replaced.value == "3" && replaced.secure && replaced.creation == now)
        #expect(header(jar, to: "https://example.com/", at: later) == "a=3; b=2")
    }

    @Test("another path, another domain or another name's case is another cookie")
    func distinctKeys() {
        var jar = jar(["id=1; Path=/", "id=2; Path=/a", "ID=3"], from: "https://api.example.com/")
        jar.store(setCookieHeaders: ["id=4; Domain=example.com"], requestURL: url("https://api.example.com/"), now: now)
        #expect(jar.cookies.map(\.value) == ["1", "2", "3", "4"])
    }

    @Test("a host-only and a Domain cookie of the same host share a key: the newer replaces the older")
    func hostOnlyAndDomainShareKey() throws {
        var jar = jar(["id=1"], from: "https://example.com/")
        jar.store(setCookieHeaders: ["id=2; Domain=example.com"], requestURL: url("https://example.com/"), now: now)
        let cookie = try #require(jar.cookies.first)
        #expect(jar.cookies.count == 1)
        #expect(cookie.value == "2" && !cookie.hostOnly)
        #expect(header(jar, to: "https://www.example.com/") == "id=2")
    }

    @Test("the Cookie header lists longer paths first, then earlier creation")
    func ordering() {
        var jar = CookieJar()
        let request = url("https://example.com/a/b/c")
        jar.store(setCookieHeaders: ["root=1; Path=/"], requestURL: request, now: now)
        jar.store(setCookieHeaders: ["late=2; Path=/a"], requestURL: request, now: now.addingTimeInterval(2))
        jar.store(setCookieHeaders: ["early=3; Path=/a"], requestURL: request, now: now.addingTimeInterval(1))
        jar.store(setCookieHeaders: ["deep=4; Path=/a/b"], requestURL: request, now: now.addingTimeInterval(3))
        let later = now.addingTimeInterval(10)
        #expect(header(jar, to: "https://example.com/a/b/c", at: later) == "deep=4; early=3; late=2; root=1")
        #expect(header(jar, to: "https://example.com/a", at: later) == "early=3; late=2; root=1")
        // Evidence keeps the order of storing.
        #expect(jar.cookies.map(\.name) == ["root", "late", "early", "deep"])
    }

    @Test("cookies created at the same instant keep the order they were set in")
    func sameCreation() {
        // z and y get the default path "/p"; x is shorter, w longer.
        let jar = jar(["z=1", "y=2", "x=3; Path=/", "w=4; Path=/p/q"], from: "https://example.com/p/q")
        #expect(header(jar, to: "https://example.com/p/q") == "w=4; z=1; y=2; x=3")
    }

    @Test("no cookie applies: no header")
    func noHeader() {
        #expect(header(CookieJar(), to: "https://example.com/") == nil)
        #expect(CookieJar() == CookieJar())
        #expect(jar(["a=1"], from: "https://example.com/") != CookieJar())
    }
}

// MARK: - Malformed input

@Suite("Cookie jar: malformed Set-Cookie", .timeLimit(.minutes(3)))
struct CookieJarMalformedTests {
    /// A header, named in test output by its (escaped, shortened) start.
    struct Malformed: CustomTestStringConvertible, Sendable {
        let setCookie: String
        var testDescription: String {
            let shown = setCookie.debugDescription
            return shown.count > 40 ? "\(shown.prefix(40))… (\(setCookie.utf8.count) bytes)" : shown
        }
    }

    @Test(
        "ignored, never a crash",
        arguments: [
            "", " ", ";", "novalue", "novalue; Path=/", ";a=b", "=value", "  =value", "=",
            "a\u{0}b=c", "a=b\u{1}", "a=b\r\nSet-Cookie: evil=1", "a=b\n", "a=b; Path=/\u{7F}",
            "a=b; Domain=exa\u{1F}mple.com",
            "big=" + String(repeating: "x", count: 4094),  // 3 + 4094 = 4097 bytes
            "big=" + String(repeating: "é", count: 2047),  // 3 + 4094 bytes: counted in bytes, not characters
            String(repeating: "n", count: 5000) + "=v",
        ].map(Malformed.init))
    func ignored(_ malformed: Malformed) {
        let jar = jar([malformed.setCookie], from: "https://example.com/")
        #expect(jar.cookies.isEmpty)
        #expect(header(jar, to: "https://example.com/") == nil)
    }

    @Test("a name and value of exactly 4096 bytes is accepted")
    func sizeLimit() {
        let cookie = "big=" + String(repeating: "x", count: 4093)
        #expect(jar([cookie], from: "https://example.com/").cookies.count == 1)
    }

    @Test("an attribute value over 1024 bytes is ignored, the cookie kept")
    func longAttribute() throws {
        let jar = jar(["id=1; Path=/" + String(repeating: "p", count: 1024)], from: "https://example.com/a/b")
        #expect(try #require(jar.cookies.first).path == "/a")
    }

    @Test("valid headers around a malformed one are stored")
    func mixed() {
        let jar = jar(["a=1", "broken", "=x", "b=2; Domain=evil.com", "c=3"], from: "https://example.com/")
        #expect(header(jar, to: "https://example.com/") == "a=1; c=3")
    }

    @Test("non-ASCII bytes and odd attributes do not break parsing")
    func oddButValid() {
        let jar = jar(
            ["名前=値; Path=/ünï; Expires; Max-Age; =; ;; Unknown=1; Secure=ignored-value"],
            from: "https://example.com/")
        #expect(jar.cookies.map(\.name) == ["名前"])
        #expect(jar.cookies.first?.secure == true)
        #expect(header(jar, to: "https://example.com/ünï/x") == "名前=値")
    }
}
