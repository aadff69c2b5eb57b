import Foundation
import RunnerPlan

/// What `serve` answers on each path, as a pure function of the request line and the latest
/// cycle (tested without sockets).
enum MonitorRoutes {
    /// Prometheus' text exposition format, version 0.0.4.
    static let metricsType = "text/plain; version=0.0.4; charset=utf-8"

    /// The answer to `method path` (the query, if any, ignored). HEAD gets GET's answer; the
    /// server leaves its body out.
    static func response(method: String, uri: String, latest: CycleSnapshot.Documents?) -> Response {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? uri
        let known = ["/metrics", "/report.json", "/junit.xml", "/report.html", "/-/healthy", "/-/ready", "/"]
        // The path is not echoed: the page stays a few bytes whatever was asked.
        guard known.contains(path) else { return .text(404, "Not Found", "not found (try /metrics)\n") }
        guard method == "GET" || method == "HEAD" else {
            var refused = Response.text(405, "Method Not Allowed", "\(method) is not allowed here: GET or HEAD\n")
            refused.allow = "GET, HEAD"
            return refused
        }
        return answer(path, latest: latest)
    }

    /// The answer to a request refused from its head alone, nil for one to route: HTTP/1.0 and
    /// 1.1 only, and no request body (every endpoint is a GET: a body would only hold the
    /// connection while it comes). `contentLengths` are the `Content-Length` values as sent.
    static func refusal(versionMajor: Int, versionMinor: Int, contentLengths: [String], chunked: Bool) -> Response? {
        guard versionMajor == 1, versionMinor == 0 || versionMinor == 1 else { return unsupportedVersion }
        if chunked { return .text(413, "Payload Too Large", "requests here carry no body\n") }
        for value in contentLengths {
            guard let length = UInt64(value.trimmingCharacters(in: .whitespaces)) else {
                return .text(400, "Bad Request", "invalid Content-Length\n")
            }
            if length > 0 { return .text(413, "Payload Too Large", "requests here carry no body\n") }
        }
        return nil
    }

    /// The answer to a request in another HTTP version than 1.0 or 1.1 (HTTP/0.9 included).
    static let unsupportedVersion = Response.text(505, "HTTP Version Not Supported", "HTTP/1.0 or HTTP/1.1 only\n")

    /// The answer to a request whose head is longer than any scraper's.
    static let headTooLong = Response.text(
        431, "Request Header Fields Too Large", "the request head is longer than \(MonitorRequestHeadScan.maximumHead) bytes\n")

    /// What a connection gets when its request was not complete within `limit` (then it is closed).
    static func timedOut(after limit: Duration) -> Response {
        .text(408, "Request Timeout", "the request was not complete within \(limit.planNotation)\n")
    }

    private static func answer(_ path: String, latest: CycleSnapshot.Documents?) -> Response {
        switch path {
        case "/-/healthy":
            return .text(200, "OK", "Healthy.\n")
        case "/-/ready":
            guard let latest else { return .text(503, "Service Unavailable", "Not ready: the first cycle has not completed.\n") }
            // Checks that go on while their answers are lost would let retained checks miss edges.
            if let problem = latest.stateProblem {
                return .text(503, "Service Unavailable", "Not ready: the last cycle's \(problem).\n")
            }
            return .text(200, "OK", "Ready.\n")
        case "/":
            return .text(200, "OK", "runner serve: /metrics, /report.json, /junit.xml, /report.html, /-/healthy, /-/ready\n")
        default:
            guard let latest else {
                return .text(503, "Service Unavailable", "no cycle has completed yet: the first is running\n")
            }
            switch path {
            case "/metrics": return Response(status: 200, reason: "OK", contentType: metricsType, body: latest.metrics())
            case "/report.json": return Response(status: 200, reason: "OK", contentType: "application/json", body: latest.reportJSON)
            case "/report.html":
                return Response(status: 200, reason: "OK", contentType: "text/html; charset=utf-8", body: latest.reportHTML)
            default: return Response(status: 200, reason: "OK", contentType: "application/xml", body: latest.junitXML)
            }
        }
    }
}
