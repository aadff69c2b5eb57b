import Foundation
@testable import RunnerCapture

/// Hand-made captures: a log around the given entries, as each tool frames it.
enum HARFixture {
    static func log(_ entries: [String], version: String = "\"1.2\"", creator: String = #"{"name": "Test", "version": "1"}"#) -> Data {
        Data(#"{"log": {"version": \#(version), "creator": \#(creator), "entries": [\#(entries.joined(separator: ","))]}}"#.utf8)
    }

    /// A minimal well-formed entry with `extra` fields added to it.
    static func entry(url: String = "https://api.example.com/v1/items", method: String = "\"GET\"", extra: String = "") -> String {
        let more = extra.isEmpty ? "" : ", " + extra
        return #"""
            {"startedDateTime": "2026-11-27T10:00:00.123Z", "time": 12,
             "request": {"method": \#(method), "url": "\#(url)", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}\#(more)}
            """#
    }

    static func read(_ data: Data, path: String = "capture.har") throws(HARReadError) -> HARCapture {
        try HARCapture.read(data, path: path)
    }

    /// The error's text, or a note that there was none.
    static func refusal(_ data: Data, path: String = "capture.har") -> String {
        do throws(HARReadError) {
            let capture = try HARCapture.read(data, path: path)
            return "read \(capture.entries.count) entries"
        } catch {
            return error.description
        }
    }
}
