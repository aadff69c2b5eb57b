import Foundation
import Testing
@testable import RunnerCapture

/// What a capture cannot be read with, as `init --har` prints it: `FILE: entry N: …`, N from 0.
@Suite struct HARRefusalTests {
    private func refusal(_ entries: [String]) -> String {
        HARFixture.refusal(HARFixture.log([HARFixture.entry()] + entries), path: "app.har")
    }

    @Test func wholeFileProblems() {
        #expect(HARFixture.refusal(Data("not json".utf8), path: "a.har") == "a.har: not JSON: not a HAR capture")
        #expect(HARFixture.refusal(Data(), path: "a.har") == "a.har: not JSON: not a HAR capture")
        #expect(HARFixture.refusal(Data("[1]".utf8), path: "a.har") == "a.har: the top level is not an object: not a HAR capture")
        #expect(HARFixture.refusal(Data(#"{"entries": []}"#.utf8), path: "a.har") == "a.har: no log object: not a HAR capture")
        #expect(HARFixture.refusal(Data(#"{"log": {"version": "1.2"}}"#.utf8), path: "a.har") == "a.har: no log.entries")
        #expect(HARFixture.refusal(Data(#"{"log": {"entries": null}}"#.utf8), path: "a.har") == "a.har: no log.entries")
        #expect(HARFixture.refusal(Data(#"{"log": {"entries": {}}}"#.utf8), path: "a.har") == "a.har: log.entries is not a list")
        #expect(HARFixture.refusal(Data(#"{"log": []}"#.utf8), path: "a.har") == "a.har: log is not an object")
    }

    @Test func entryNotAnObject() {
        #expect(refusal(["3"]) == "app.har: entry 1: not an object")
    }

    @Test func requestMissingOrIncomplete() {
        #expect(refusal([#"{"response": {"status": 200}}"#]) == "app.har: entry 1: no request")
        #expect(refusal([HARFixture.entry(method: "null")]) == "app.har: entry 1: request has no method")
        #expect(refusal([HARFixture.entry(method: "\"\"")]) == "app.har: entry 1: request has no method")
        #expect(refusal([HARFixture.entry(method: "7")]) == "app.har: entry 1: request.method is not a string")
        #expect(refusal([HARFixture.entry(url: "")]) == "app.har: entry 1: request has no url")
    }

    @Test(arguments: ["/v1/items", "ftp://example.com/a", "https://", "example.com/a", "javascript:alert(1)", "ws://example.com/s"])
    func urlNotAbsoluteHTTP(url: String) {
        #expect(refusal([HARFixture.entry(url: url)]) == "app.har: entry 1: request.url '\(url)' is not an absolute http or https URL")
    }

    @Test func base64ThatDoesNotDecode() {
        let response = HARFixture.entry().replacingOccurrences(
            of: #""content": {"size": 0, "mimeType": "text/plain"}"#,
            with: #""content": {"size": 3, "mimeType": "application/json", "text": "{\"a\": 1}", "encoding": "base64"}"#)
        #expect(refusal([response]) == "app.har: entry 1: response.content.text is not base64")
        let request = HARFixture.entry(method: "\"POST\"").replacingOccurrences(
            of: #""bodySize": 0},"#, with: #""bodySize": 1, "postData": {"mimeType": "x/y", "text": "!!", "encoding": "base64"}},"#)
        #expect(refusal([request]) == "app.har: entry 1: request.postData.text is not base64")
    }

    @Test func unknownEncoding() {
        let response = HARFixture.entry().replacingOccurrences(
            of: #""content": {"size": 0, "mimeType": "text/plain"}"#,
            with: #""content": {"size": 3, "mimeType": "text/plain", "text": "abc", "encoding": "gzip"}"#)
        #expect(refusal([response]) == "app.har: entry 1: response.content.encoding 'gzip' is not one a capture uses (base64)")
    }

    @Test func fieldsOfTheWrongKind() {
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""headers": [], "queryString""#, with: #""headers": {}, "queryString""#)])
            == "app.har: entry 1: request.headers is not a list")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""headers": [], "queryString""#, with: #""headers": [{"value": "x"}], "queryString""#)])
            == "app.har: entry 1: request.headers[0] has no name")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""headers": [], "queryString""#, with: #""headers": ["x"], "queryString""#)])
            == "app.har: entry 1: request.headers[0] is not an object")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""status": 200"#, with: #""status": "OK""#)])
            == "app.har: entry 1: response.status 'OK' is not a number")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""status": 200"#, with: #""status": [200]"#)])
            == "app.har: entry 1: response.status is not a number")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""status": 200"#, with: #""status": 1e300"#)])
            == "app.har: entry 1: response.status is not a whole number")
        #expect(refusal([HARFixture.entry().replacingOccurrences(of: #""status": 200"#, with: #""status": -4"#)])
            == "app.har: entry 1: response.status -4 is not an HTTP status")
        #expect(refusal([HARFixture.entry(extra: #""response": 5"#).replacingOccurrences(of: #""response": {"status""#, with: #""_r": {"status""#)])
            == "app.har: entry 1: response is not an object")
    }

    @Test func controlCharactersShowAsText() {
        let text = refusal([HARFixture.entry(url: #"\u001b[31mhttp"#)])
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B })
        #expect(text.hasPrefix("app.har: entry 1: request.url '"))
    }
}
