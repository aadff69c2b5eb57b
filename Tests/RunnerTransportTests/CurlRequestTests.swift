import Foundation
import Testing

@testable import RunnerTransport
import RunnerVocabulary

@Suite("How a TransferSpec is put to libcurl", .timeLimit(.minutes(3)))
struct CurlRequestTests {
    private func request(_ spec: TransferSpec) throws -> CurlRequest {
        try CurlRequest(spec: spec)
    }

    @Test("trust override: peer verified, curl's host check off, OpenSSL checks the name")
    func trustOverride() throws {
        let plan = try request(TransferSpec(
            url: "https://203.0.113.10/v1", headers: [Header(name: "Host", value: "api.example.com")],
            tls: .init(caFile: "/ca.pem", verifyName: "api.example.com"), poolKey: "k"))
        #expect(plan.lasting.verifyPeer)
        #expect(!plan.lasting.verifyHost)
        #expect(plan.verifyName == "api.example.com")
        #expect(plan.lasting.caFile == "/ca.pem")
    }

    @Test("default TLS: curl verifies peer and host")
    func defaultTLS() throws {
        let plan = try request(TransferSpec(url: "https://api.example.com/", poolKey: "k"))
        #expect(plan.lasting.verifyPeer && plan.lasting.verifyHost)
        #expect(plan.verifyName == nil)
    }

    @Test("insecure skips every check, even with a verification name")
    func insecure() throws {
        let plan = try request(TransferSpec(
            url: "https://203.0.113.10/", tls: .init(insecure: true, verifyName: "api.example.com"), poolKey: "k"))
        #expect(!plan.lasting.verifyPeer && !plan.lasting.verifyHost)
        #expect(plan.verifyName == nil)
    }

    @Test("an empty verification name is refused, never treated as no check")
    func emptyVerifyName() {
        #expect(throws: TransferError.self) {
            try request(TransferSpec(url: "https://203.0.113.10/", tls: .init(verifyName: ""), poolKey: "k"))
        }
    }

    @Test(
        "HTTP version per scheme",
        arguments: [
            (HTTPVersion.auto, true, CurlHTTPVersion.http2OverTLS),
            (.auto, false, .http1_1),
            (.http2, true, .http2OverTLS),
            (.http2, false, .http2PriorKnowledge),
            (.http1_1, true, .http1_1),
            (.http1_1, false, .http1_1),
        ])
    func httpVersion(version: HTTPVersion, https: Bool, expected: CurlHTTPVersion) throws {
        let plan = try request(TransferSpec(url: https ? "HTTPS://h/" : "http://h/", httpVersion: version, poolKey: "k"))
        #expect(plan.lasting.httpVersion == expected)
    }

    @Test("methods: GET plain, HEAD as NOBODY, others as a custom request")
    func methods() throws {
        let get = try request(TransferSpec(url: "http://h/", poolKey: "k"))
        #expect(get.customMethod == nil && !get.noBody && get.body == .none)
        let head = try request(TransferSpec(url: "http://h/", method: "HEAD", poolKey: "k"))
        #expect(head.noBody && head.customMethod == nil)
        let delete = try request(TransferSpec(url: "http://h/", method: "DELETE", poolKey: "k"))
        #expect(delete.customMethod == "DELETE" && delete.body == .none)
        let emptyPost = try request(TransferSpec(url: "http://h/", method: "POST", poolKey: "k"))
        #expect(emptyPost.body == .bytes(Data()) && emptyPost.customMethod == nil)
    }

    @Test("bodies: bytes for any method, files streamed, the method kept")
    func bodies() throws {
        let bytes = Data([0, 1, 0, 255])
        let put = try request(TransferSpec(url: "http://h/", method: "PUT", body: .bytes(bytes), poolKey: "k"))
        #expect(put.body == .bytes(bytes))
        #expect(put.customMethod == "PUT")
        let post = try request(TransferSpec(url: "http://h/", method: "POST", body: .file(path: "/tmp/x"), poolKey: "k"))
        #expect(post.body == .file(path: "/tmp/x"))
        #expect(post.customMethod == nil)
        let head = try request(TransferSpec(url: "http://h/", method: "HEAD", body: .bytes(bytes), poolKey: "k"))
        #expect(head.noBody && head.body == .none)
    }

    @Test("header lines: as given, in order; libcurl's Expect and form Content-Type turned off")
    func headerLines() throws {
        let lines = try CurlRequest.headerLines([Header(name: "Host", value: "api.example.com"), Header(name: "X-Empty", value: ""), Header(name: "A", value: "b: c")], hasBody: true)
        #expect(lines == ["Host: api.example.com", "X-Empty;", "A: b: c", "Expect:", "Content-Type:"])
        let own = try CurlRequest.headerLines([Header(name: "expect", value: "100-continue"), Header(name: "content-type", value: "application/json")], hasBody: true)
        #expect(own == ["expect: 100-continue", "content-type: application/json"])
        let noBody = try CurlRequest.headerLines([], hasBody: false)
        #expect(noBody == ["Expect:"])
    }

    @Test("header injection is refused before anything is sent")
    func injection() {
        #expect(throws: TransferError.self) { try CurlRequest.headerLines([Header(name: "X", value: "a\r\nEvil: 1")], hasBody: false) }
        #expect(throws: TransferError.self) { try CurlRequest.headerLines([Header(name: "Bad Name", value: "v")], hasBody: false) }
        do {
            _ = try CurlRequest.headerLines([Header(name: "X", value: "a\nb")], hasBody: false)
            Issue.record("expected a failure")
        } catch {
            #expect(error.message == "request not sent: header 'X' has a line break in its value")
        }
    }

    @Test(
        "timeouts in whole milliseconds, rounded up, never 0 (which libcurl reads as none)",
        arguments: [
            (Duration.seconds(10), 10_000), (.milliseconds(250), 250), (.microseconds(1500), 2),
            (.zero, 1), (.nanoseconds(1), 1), (.seconds(-3), 1),
        ])
    func milliseconds(duration: Duration, expected: Int) {
        #expect(CurlRequest.milliseconds(duration) == expected)
    }

    @Test("connect-to and connect-only pass through")
    func passThrough() throws {
        let plan = try request(TransferSpec(
            url: "https://api.example.com/", connectTo: "api.example.com:443:[2001:db8::10]:443", poolKey: "k",
            connectOnly: true))
        #expect(plan.connectTo == ["api.example.com:443:[2001:db8::10]:443"])
        #expect(plan.connectOnly)
    }

    @Test("a handle keeps only the lasting options of a plain request: a body, a method, HEAD or a probe resets it")
    func lastingOptions() throws {
        let get = try request(TransferSpec(url: "https://h/", connectTo: "h:443:192.0.2.1:443", poolKey: "k"))
        #expect(get.onlyLastingOptions == get.lasting && get.lasting.connectsTo)
        #expect(try request(TransferSpec(url: "https://h/", poolKey: "k")).onlyLastingOptions?.connectsTo == false)
        for (method, body) in [("HEAD", nil), ("POST", nil), ("DELETE", nil), ("PUT", RequestBody.bytes(Data("x".utf8)))] {
            let other = try request(TransferSpec(url: "https://h/", method: method, body: body, poolKey: "k"))
            #expect(other.onlyLastingOptions == nil, "\(method)")
        }
        #expect(try request(TransferSpec(url: "https://h/", poolKey: "k", connectOnly: true)).onlyLastingOptions == nil)
    }

    @Test("a URL's scheme is read from its first bytes, letters in any case, and nothing else")
    func urlSchemes() {
        for url in ["https://h/", "HTTPS://h/", "HtTpS://[::1]:8443/x", "https://"] {
            #expect(URLScheme(ofURL: url) == .https, "\(url)")
        }
        for url in ["http://h/", "HTTP://h", "hTtP://[::1]/", "http://", "http:///"] {
            #expect(URLScheme(ofURL: url) == .http, "\(url)")
        }
        for url in [
            "https:/h", "https:\\h", "httpsx//h", "shttps://h", "", "https", "h\u{1A}tps://", "http:/", "http:x//", "htt://h",
            "http\u{1A}//h", "ftp://h", "HTTPS:/",
        ] {
            #expect(URLScheme(ofURL: url) == nil, "\(url)")
        }
        // A string of another representation than native UTF-8 is read the same.
        #expect(URLScheme(ofURL: String(NSString(string: "HTTPS://h/"))) == .https)
    }
}
