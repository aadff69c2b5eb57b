import Foundation

extension HARRequest {
    static func read(_ request: HARObject) throws(HARReadError) -> HARRequest {
        guard let method = try request.nonEmptyString("method") else { throw request.error("request has no method") }
        guard let url = try request.nonEmptyString("url") else { throw request.error("request has no url") }
        guard isAbsoluteHTTP(url) else { throw request.error("request.url '\(url.prefix(200))' is not an absolute http or https URL") }
        let versionText = try request.string("httpVersion")
        let body = try request.object("postData").map { (object) throws(HARReadError) in try HARBody.read(object) }
        return HARRequest(
            method: method, url: url, httpVersion: HTTPVersionSeen(harText: versionText ?? ""), httpVersionText: versionText,
            headers: try HARHeader.readList(request, "headers"),
            queryString: try request.objects("queryString").map { (pair) throws(HARReadError) in
                HARQueryParameter(name: try pair.string("name") ?? "", value: try pair.string("value") ?? "")
            },
            cookies: try HARCookie.readList(request), body: body)
    }

    /// `http://` or `https://` with a host: the only URLs a check can send again.
    static func isAbsoluteHTTP(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
