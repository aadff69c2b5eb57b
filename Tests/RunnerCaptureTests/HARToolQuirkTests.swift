import Foundation
import Testing
@testable import RunnerCapture

/// Each tool's way of writing a capture (docs: the HAR facts), read without complaint.
@Suite struct HARToolQuirkTests {
    @Test func chromeHTTP2PseudoHeadersAndBracketedIPv6() throws {
        let entry = #"""
            {"startedDateTime": "2026-11-27T10:00:00.123Z", "time": 30, "_initiator": {"type": "script"}, "_priority": "High",
             "request": {"method": "GET", "url": "https://www.example.org/w/api.php?action=query&list=x", "httpVersion": "http/2.0",
               "headers": [{"name": ":authority", "value": "www.example.org"}, {"name": ":method", "value": "GET"},
                           {"name": ":path", "value": "/w/api.php?action=query&list=x"}, {"name": ":scheme", "value": "https"},
                           {"name": "accept", "value": "application/json"}, {"name": "user-agent", "value": "Mozilla/5.0"}],
               "queryString": [{"name": "action", "value": "query"}, {"name": "list", "value": "x"}], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0", "headers": [{"name": "content-type", "value": "application/json"}],
               "cookies": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}, "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 120, "_error": null},
             "serverIPAddress": "[2620:0:860:ed1a::1]", "connection": "123456", "cache": {}, "timings": {}}
            """#
        let capture = try HARFixture.read(HARFixture.log([entry]))
        let read = try #require(capture.entries.first)
        #expect(read.index == 0)
        #expect(read.request.httpVersion == .http2)
        #expect(read.request.httpVersionText == "http/2.0")
        #expect(read.request.headers.map(\.name) == [":authority", ":method", ":path", ":scheme", "accept", "user-agent"])
        #expect(read.request.pseudoHeaders.count == 4)
        #expect(read.request.regularHeaders == [HARHeader(name: "accept", value: "application/json"), HARHeader(name: "user-agent", value: "Mozilla/5.0")])
        #expect(read.request.queryString == [HARQueryParameter(name: "action", value: "query"), HARQueryParameter(name: "list", value: "x")])
        // Chrome's connection id is no port; the brackets go.
        #expect(read.serverIPAddress == HARServerAddress(address: "2620:0:860:ed1a::1", port: nil))
        #expect(read.response?.content?.bytes == Data("{}".utf8))
        #expect(read.response?.redirectURL == nil)
        #expect(!read.failed)
    }

    @Test func firefoxPortInConnection() throws {
        let entry = HARFixture.entry(extra: #""serverIPAddress": "93.184.216.34", "connection": "443", "pageref": "page_1", "comment": "Response bodies are not included.""#)
        let read = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first)
        #expect(read.serverIPAddress == HARServerAddress(address: "93.184.216.34", port: 443))
        #expect(read.request.httpVersion == .http1_1)
    }

    @Test func safariServerPortAndEmptyParams() throws {
        let entry = #"""
            {"startedDateTime": "2026-11-27T10:00:00.5Z", "time": 3,
             "request": {"method": "POST", "url": "https://api.example.com/login", "httpVersion": "HTTP/2", "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}],
               "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 7,
               "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "a=1&b=2", "params": []}},
             "response": {"status": 204, "statusText": "No Content", "httpVersion": "HTTP/2", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": ""}, "redirectURL": ""},
             "serverIPAddress": "2001:db8::5", "_serverPort": 8443, "cache": {}, "timings": {}}
            """#
        let read = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first)
        #expect(read.serverIPAddress == HARServerAddress(address: "2001:db8::5", port: 8443))
        #expect(read.request.httpVersion == .http2)
        #expect(read.request.body == HARBody(bytes: Data("a=1&b=2".utf8), mimeType: "application/x-www-form-urlencoded", params: []))
        #expect(read.response?.content?.bytes == nil)
    }

    @Test func charlesBase64JSONNullsStringCreatorAndStatusPseudoHeader() throws {
        let entry = #"""
            {"startedDateTime": "2019-05-10T15:34:45.123+02:00", "time": 40,
             "request": {"method": "GET", "url": "https://api.example.com/v2/me", "httpVersion": "HTTP/2.0",
               "headers": [{"name": ":method", "value": "GET"}, {"name": "cookie", "value": "a=1"}, {"name": "cookie", "value": "b=2"}],
               "queryString": [], "cookies": [{"name": "a", "value": "1", "path": null, "domain": null, "expires": null, "httpOnly": null}, {"name": null, "value": null}],
               "headersSize": -1, "bodySize": -1, "comment": null},
             "response": {"status": 200, "statusText": null, "httpVersion": "HTTP/2.0",
               "headers": [{"name": ":status", "value": "200"}, {"name": "content-type", "value": "application/json"}], "cookies": [],
               "content": {"size": 11, "mimeType": null, "text": "eyJpZCI6IDF9", "encoding": "base64", "compression": null},
               "redirectURL": null, "headersSize": -1, "bodySize": 11},
             "serverIPAddress": "203.0.113.9", "cache": {"beforeRequest": null, "afterRequest": null}, "timings": {"dns": -1}, "pageref": null}
            """#
        let capture = try HARFixture.read(HARFixture.log([entry], creator: #""Charles Proxy""#))
        #expect(capture.creator == "Charles Proxy")
        let read = try #require(capture.entries.first)
        #expect(read.response?.statusText == nil)
        #expect(read.response?.redirectURL == nil)
        #expect(read.response?.headers.first == HARHeader(name: ":status", value: "200"))
        #expect(read.response?.regularHeaders == [HARHeader(name: "content-type", value: "application/json")])
        #expect(read.response?.content == HARBody(bytes: Data(#"{"id": 1}"#.utf8), mimeType: nil, params: [], wasBase64: true))
        #expect(read.request.cookies == [HARCookie(name: "a", value: "1"), HARCookie(name: "", value: "")])
        #expect(read.request.headers.filter { $0.name == "cookie" }.count == 2)
        let started = try #require(read.startedDateTime)
        #expect(abs(started.timeIntervalSince1970 - 1_557_495_285.123) < 0.001)
    }

    @Test func mitmproxyBOMAndNoServerAddress() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(HARFixture.log([HARFixture.entry(extra: #""_mitmproxy": true"#)], creator: #"{"name": "mitmproxy", "version": "11.0", "comment": ""}"#))
        let capture = try HARFixture.read(data)
        #expect(capture.creator == "mitmproxy")
        #expect(capture.entries.first?.serverIPAddress == nil)
    }

    /// mitmproxy writes a body of a UTF-8 type whose bytes are not UTF-8 with each bad byte a lone
    /// surrogate escape (Python's surrogateescape; MitmproxyHARTests captures one), which
    /// JSONSerialization refused, the whole capture with it: each reads as U+FFFD. A pair stays a
    /// pair, and an escaped backslash before "udce9" is text, not an escape.
    @Test func mitmproxyLoneSurrogatesReadAsReplacementCharacters() throws {
        let postData = #""postData": {"mimeType": "text/plain; charset=utf-8", "text": "caf\udce9 \udcff! \ud83d\ude00 \\udce9 \ud83d", "params": []}"#
        let entry = HARFixture.entry(method: #""POST""#)
            .replacingOccurrences(of: #""queryString": [], "headersSize": -1, "bodySize": 0}"#, with: #""queryString": [], "bodySize": 12, \#(postData)}"#)
        let capture = try HARFixture.read(HARFixture.log([entry], creator: #"{"name": "mitmproxy", "version": "11.0.2", "comment": ""}"#))
        let bytes = try #require(capture.entries.first?.request.body?.bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "caf\u{FFFD} \u{FFFD}! \u{1F600} \\udce9 \u{FFFD}")
    }

    @Test func proxymanEntryWithoutResponse() throws {
        let entry = #"""
            {"startedDateTime": "2026-11-27T10:00:00Z", "time": 0,
             "request": {"method": "DELETE", "url": "http://10.0.0.2:8080/x", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": []},
             "cache": {}, "timings": {}}
            """#
        let capture = try HARFixture.read(HARFixture.log([HARFixture.entry(), entry], version: #""1.3""#))
        #expect(capture.version == "1.3")
        #expect(capture.entries.map(\.index) == [0, 1])
        let read = capture.entries[1]
        #expect(read.response == nil)
        #expect(read.failed)
        #expect(read.failure == .noResponse)
        // Timestamps without milliseconds parse; the text is kept.
        #expect(read.startedDateTime == Date(timeIntervalSince1970: 1_795_773_600))
        #expect(read.startedDateTimeText == "2026-11-27T10:00:00Z")
    }

    @Test func failedEntryStatusZeroAndError() throws {
        let chrome = #"""
            {"startedDateTime": "2026-11-27T10:00:00.000Z", "time": 0,
             "request": {"method": "GET", "url": "https://down.example.com/", "httpVersion": "", "headers": [], "queryString": [], "cookies": []},
             "response": {"status": 0, "statusText": "", "httpVersion": "", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"},
               "redirectURL": "", "_error": "net::ERR_CONNECTION_REFUSED"},
             "serverIPAddress": "", "cache": {}, "timings": {}}
            """#
        let bare = HARFixture.entry(extra: #""_error": "timeout""#).replacingOccurrences(of: #""status": 200"#, with: #""status": 0"#)
        let silent = HARFixture.entry().replacingOccurrences(of: #""status": 200"#, with: #""status": 0"#)
        let capture = try HARFixture.read(HARFixture.log([chrome, bare, silent]))
        #expect(capture.entries.map(\.failure) == [.error("net::ERR_CONNECTION_REFUSED"), .error("timeout"), .statusZero])
        #expect(capture.entries[0].serverIPAddress == nil)
        #expect(capture.entries[0].request.httpVersion == .unknown)
        #expect(capture.entries[0].failure?.description == "failed: net::ERR_CONNECTION_REFUSED")
    }

    @Test func version13Base64PostData() throws {
        let entry = HARFixture.entry(method: "\"PUT\"").replacingOccurrences(
            of: #""bodySize": 0},"#,
            with: #""bodySize": 4, "postData": {"mimeType": "application/octet-stream", "text": "AAEC/w==", "encoding": "base64"}},"#)
        let read = try #require(try HARFixture.read(HARFixture.log([entry], version: #""1.3""#)).entries.first)
        #expect(read.request.body?.bytes == Data([0, 1, 2, 255]))
        #expect(read.request.body?.wasBase64 == true)
    }

    @Test func formParamsWithoutText() throws {
        let entry = HARFixture.entry(method: "\"POST\"").replacingOccurrences(
            of: #""bodySize": 0},"#,
            with: #""bodySize": 9, "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "ann"}, {"name": "{\"a\":1}", "value": null}]}},"#)
        let body = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first?.request.body)
        #expect(body.bytes == nil)
        // A JSON body sent as a form becomes one param named by the whole JSON (Charles).
        #expect(body.params == [HARFormParameter(name: "user", value: "ann"), HARFormParameter(name: #"{"a":1}"#)])
    }

    @Test func multipartTextAndParams() throws {
        let text = #"--XX\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--XX--\r\n"#
        let entry = HARFixture.entry(method: "\"POST\"").replacingOccurrences(
            of: #""bodySize": 0},"#,
            with: #""bodySize": 90, "postData": {"mimeType": "multipart/form-data; boundary=XX", "text": "\#(text)", "params": [{"name": "f", "value": "PNG", "fileName": "a.png", "contentType": "image/png"}]}},"#)
        let body = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first?.request.body)
        #expect(body.mimeType == "multipart/form-data; boundary=XX")
        #expect(body.bytes.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("--XX\r\nContent-Disposition") == true)
        #expect(body.params == [HARFormParameter(name: "f", value: "PNG", fileName: "a.png", contentType: "image/png")])
    }

    @Test func unknownToolFieldsAndNullFieldsIgnored() throws {
        let entry = HARFixture.entry(extra: #""_resourceType": "fetch", "_webSocketMessages": [1, {"x": null}], "serverIPAddress": null, "connection": null"#)
        let capture = try HARFixture.read(HARFixture.log([entry], creator: "null"))
        #expect(capture.creator == nil)
        #expect(capture.entries.first?.serverIPAddress == nil)
    }

    @Test func emptyCaptureHasNoEntries() throws {
        #expect(try HARFixture.read(HARFixture.log([])).entries.isEmpty)
    }
}
