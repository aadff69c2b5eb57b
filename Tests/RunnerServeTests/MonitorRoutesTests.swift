import Testing

@testable import RunnerServe

/// `MonitorRoutes`: each path's status and body with and without a completed cycle, methods, and refusals from the head.
@Suite struct MonitorRoutesTests {
    static let latest = CycleSnapshot.Documents(
        metrics: { Array("runner_up 1\n".utf8) }, reportJSON: Array("{\"ok\":true}".utf8),
        junitXML: Array("<testsuites/>".utf8), reportHTML: Array("<!doctype html>".utf8))

    static let index = "runner serve: /metrics, /report.json, /junit.xml, /report.html, /-/healthy, /-/ready\n"

    private func text(_ response: MonitorRoutes.Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test(arguments: ["GET", "HEAD"])
    func beforeTheFirstCycleOnlyTheServerItselfAnswers(method: String) {
        for path in ["/metrics", "/report.json", "/junit.xml", "/report.html"] {
            #expect(
                MonitorRoutes.response(method: method, uri: path, latest: nil)
                    == .text(503, "Service Unavailable", "no cycle has completed yet: the first is running\n"))
        }
        #expect(
            MonitorRoutes.response(method: method, uri: "/-/ready", latest: nil)
                == .text(503, "Service Unavailable", "Not ready: the first cycle has not completed.\n"))
        #expect(MonitorRoutes.response(method: method, uri: "/-/healthy", latest: nil) == .text(200, "OK", "Healthy.\n"))
        #expect(MonitorRoutes.response(method: method, uri: "/", latest: nil) == .text(200, "OK", Self.index))
    }

    /// While the last cycle's answers are not all in the state file, readiness says why; the
    /// documents are still served (checking goes on).
    @Test func aCycleWhoseStateWasNotRecordedIsNotReady() {
        var latest = Self.latest
        latest.stateProblem = "state file 's.db' did not record 1 answer (tencent api.example.com): the disk is full (database or disk is full)"
        #expect(
            MonitorRoutes.response(method: "GET", uri: "/-/ready", latest: latest)
                == .text(503, "Service Unavailable", "Not ready: the last cycle's \(latest.stateProblem ?? "").\n"))
        #expect(MonitorRoutes.response(method: "GET", uri: "/metrics", latest: latest).status == 200)
        #expect(MonitorRoutes.response(method: "GET", uri: "/-/healthy", latest: latest).status == 200)
    }

    @Test(arguments: [
        ("/metrics", MonitorRoutes.metricsType, "runner_up 1\n"),
        ("/report.json", "application/json", "{\"ok\":true}"),
        ("/junit.xml", "application/xml", "<testsuites/>"),
        ("/report.html", "text/html; charset=utf-8", "<!doctype html>"),
        ("/-/ready", "text/plain; charset=utf-8", "Ready.\n"),
        ("/-/healthy", "text/plain; charset=utf-8", "Healthy.\n"),
        // The query is ignored.
        ("/metrics?name[]=up", MonitorRoutes.metricsType, "runner_up 1\n"),
        ("/-/ready?", "text/plain; charset=utf-8", "Ready.\n"),
    ])
    func afterACycleEachPathServesItsDocument(uri: String, contentType: String, body: String) {
        for method in ["GET", "HEAD"] {
            let response = MonitorRoutes.response(method: method, uri: uri, latest: Self.latest)
            #expect(response.status == 200)
            #expect(response.contentType == contentType)
            #expect(text(response) == body)
            #expect(response.allow == nil)
        }
    }

    @Test(arguments: [
        "/nope", "/metrics/", "/METRICS", "//metrics", "", "metrics", "/-/", "/<script>alert(1)</script>",
        "/" + String(repeating: "x", count: 8000),
    ])
    func anUnknownPathIsA404ThatDoesNotEchoIt(uri: String) {
        for method in ["GET", "POST"] {
            let response = MonitorRoutes.response(method: method, uri: uri, latest: Self.latest)
            #expect(response == .text(404, "Not Found", "not found (try /metrics)\n"))
        }
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "get"])
    func anotherMethodIsA405ThatNamesTheAllowedOnes(method: String) {
        for uri in ["/metrics", "/-/healthy", "/"] {
            let response = MonitorRoutes.response(method: method, uri: uri, latest: Self.latest)
            #expect(response.status == 405)
            #expect(response.allow == "GET, HEAD")
            #expect(text(response) == "\(method) is not allowed here: GET or HEAD\n")
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var major: Int
        var minor: Int
        var contentLengths: [String] = []
        var chunked = false
        var status: Int?
        var testDescription: String {
            "HTTP/\(major).\(minor) \(contentLengths)\(chunked ? " chunked" : "") → \(status.map(String.init) ?? "routed")"
        }
    }

    @Test(arguments: [
        Refusal(major: 1, minor: 1, status: nil),
        Refusal(major: 1, minor: 0, status: nil),
        Refusal(major: 1, minor: 1, contentLengths: ["0"], status: nil),
        Refusal(major: 1, minor: 1, contentLengths: [" 0 "], status: nil),
        Refusal(major: 0, minor: 9, status: 505),
        Refusal(major: 1, minor: 2, status: 505),
        Refusal(major: 2, minor: 0, status: 505),
        Refusal(major: 1, minor: 1, chunked: true, status: 413),
        Refusal(major: 1, minor: 1, contentLengths: ["5"], status: 413),
        Refusal(major: 1, minor: 1, contentLengths: ["0", "7"], status: 413),
        Refusal(major: 1, minor: 1, contentLengths: ["abc"], status: 400),
        Refusal(major: 1, minor: 1, contentLengths: ["-1"], status: 400),
        Refusal(major: 1, minor: 1, contentLengths: [""], status: 400),
    ])
    func aRequestIsRefusedFromItsHeadForItsVersionOrABody(_ test: Refusal) {
        let refusal = MonitorRoutes.refusal(
            versionMajor: test.major, versionMinor: test.minor, contentLengths: test.contentLengths, chunked: test.chunked)
        #expect(refusal?.status == test.status)
    }

    @Test func refusalsSayWhy() {
        #expect(MonitorRoutes.unsupportedVersion == .text(505, "HTTP Version Not Supported", "HTTP/1.0 or HTTP/1.1 only\n"))
        #expect(
            MonitorRoutes.headTooLong
                == .text(431, "Request Header Fields Too Large", "the request head is longer than 16384 bytes\n"))
        #expect(
            MonitorRoutes.refusal(versionMajor: 1, versionMinor: 1, contentLengths: ["5"], chunked: false)
                == .text(413, "Payload Too Large", "requests here carry no body\n"))
        #expect(
            MonitorRoutes.refusal(versionMajor: 1, versionMinor: 1, contentLengths: ["x"], chunked: false)
                == .text(400, "Bad Request", "invalid Content-Length\n"))
    }

    @Test(arguments: [
        (Duration.seconds(10), "10s"), (.milliseconds(1500), "1.5s"), (.milliseconds(250), "250ms"), (.seconds(120), "2m"),
    ])
    func aTimeoutIsA408ThatNamesTheLimit(limit: Duration, notation: String) {
        #expect(
            MonitorRoutes.timedOut(after: limit)
                == .text(408, "Request Timeout", "the request was not complete within \(notation)\n"))
    }
}
