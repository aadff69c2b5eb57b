import Foundation

/// Captures as the tools write them (the facts of HAR as Chrome, Firefox, Charles write it),
/// each with the secrets it holds, for `runner init --har`'s tests.
enum HandCaptures {
    static let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwcm9iZS11c2VyIiwiaWF0IjoxNzY0MjM4NDAwfQ.Zm9yZ2VkLXNpZ25hdHVyZS1mb3ItdGVzdHM"
    static let sessionCookie = "s3ss10n-c00k1e-V4LUE"
    static let sign = "9f2c1e7ab04d"
    static let password = "p@ss w0rd&more"
    static let bodyToken = "rf-7781-aa90-ZZ"
    static let multipartSecret = "mp-s3cret-field"
    static let apiKey = "ak_live_51Hx"

    /// Chrome's HTTP/2 export: pseudo-headers, one `cookie` header per cookie, IPv6 in brackets,
    /// a failed request, a repeat, a JSON body with secret fields and a signed query.
    static let chrome = """
        \u{FEFF}{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [
        \(entry(method: "GET", url: "https://api.shop.test/v1/home", version: "http/2.0", headers: [
            (":authority", "api.shop.test"), (":method", "GET"), (":path", "/v1/home"), (":scheme", "https"),
            ("accept", "application/json"), ("accept-encoding", "gzip, deflate, br"), ("authorization", "Bearer \(jwt)"),
            ("cookie", "theme=dark"), ("cookie", "sid=\(sessionCookie)"), ("user-agent", "Shop/5.1 (Android 14)"),
        ], status: 200, responseType: "application/json; charset=utf-8", responseText: #"{"items":[],"banner":null,"next":"/v1/home?p=2"}"#, address: "[2001:db8::10]"))
        ,
        \(entry(method: "POST", url: "https://api.shop.test/v1/cart?sign=\(sign)&ts=1764238400", version: "h2", headers: [
            (":method", "POST"), ("content-type", "application/json"), ("content-length", "80"), ("x-api-key", apiKey),
        ], postData: #"{"mimeType": "application/json", "text": "{\"item\":42,\"password\":\"\#(password)\",\"refreshToken\":\"\#(bodyToken)\"}"}"#,
           status: 201, responseType: "application/json", responseText: #"{"cart":"c-1","count":1}"#, address: "[2001:db8::10]"))
        ,
        \(entry(method: "GET", url: "https://cdn.shop.test/app.js", version: "", headers: [], status: 0, responseType: "", responseText: nil, address: "", extra: #", "_error": "net::ERR_NAME_NOT_RESOLVED""#))
        ,
        \(entry(method: "GET", url: "https://api.shop.test/v1/home", version: "http/2.0", headers: [
            (":authority", "api.shop.test"), ("accept", "application/json"), ("authorization", "Bearer \(jwt)"),
            ("cookie", "theme=dark"), ("cookie", "sid=\(sessionCookie)"), ("user-agent", "Shop/5.1 (Android 14)"),
        ], status: 200, responseType: "application/json", responseText: #"{"items":[],"banner":null}"#, address: "[2001:db8::10]"))
        ]}}
        """

    /// Charles: `creator` a string, `null`s, every response body base64, a form kept only as
    /// params, a multipart body, Firefox's port in `connection`.
    static let charles = """
        {"log": {"version": "1.3", "creator": "Charles Proxy", "entries": [
        \(entry(method: "POST", url: "http://static.shop.test:8080/api/form", version: "HTTP/1.1", headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Host", "static.shop.test:8080"),
        ], postData: #"{"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "probe"}, {"name": "password", "value": "\#(password)"}]}"#,
           status: 200, responseType: "application/json", responseText: "eyJvayI6dHJ1ZX0=", base64: true, address: "198.51.100.4", extra: #", "connection": "8080""#))
        ,
        \(entry(method: "POST", url: "http://static.shop.test:8080/api/upload", version: "HTTP/1.1", headers: [
            ("Content-Type", "multipart/form-data; boundary=----b0undary"),
        ], postData: #"{"mimeType": "multipart/form-data; boundary=----b0undary", "text": "------b0undary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n------b0undary\r\nContent-Disposition: form-data; name=\"session_key\"\r\n\r\n\#(multipartSecret)\r\n------b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\nABC\r\n------b0undary--\r\n"}"#,
           status: 204, responseType: nil, responseText: nil, address: "198.51.100.4"))
        ]}}
        """

    static var secrets: [String] { [jwt, sessionCookie, sign, password, bodyToken, multipartSecret, apiKey] }

    private static func entry(
        method: String, url: String, version: String, headers: [(String, String)], postData: String? = nil, status: Int,
        responseType: String?, responseText: String?, base64: Bool = false, address: String, extra: String = ""
    ) -> String {
        let headerList = headers.map { #"{"name": \#(json($0.0)), "value": \#(json($0.1))}"# }.joined(separator: ", ")
        let content =
            #"{"size": \#(responseText?.count ?? 0), "mimeType": \#(responseType.map(json) ?? "null")"#
            + (responseText.map { #", "text": \#(json($0))"# } ?? "") + (base64 ? #", "encoding": "base64""# : "") + "}"
        return #"""
            {"startedDateTime": "2026-11-27T10:00:00Z", "time": 12,
             "request": {"method": "\#(method)", "url": \#(json(url)), "httpVersion": \#(json(version)), "cookies": [], "headers": [\#(headerList)], "queryString": [], "headersSize": -1, "bodySize": -1\#(postData.map { ", \"postData\": \($0)" } ?? "")},
             "response": {"status": \#(status), "statusText": null, "httpVersion": \#(json(version)), "cookies": [], "headers": [\#(responseType.map { #"{"name": "content-type", "value": \#(json($0))}"# } ?? "")], "content": \#(content), "redirectURL": null, "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}, "serverIPAddress": \#(json(address))\#(extra)}
            """#
    }

    private static func json(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
    }
}
