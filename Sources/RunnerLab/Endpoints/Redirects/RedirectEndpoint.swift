import NIOHTTP1

/// `/redirect/{code}?to=URL-or-path[&set-cookie=COOKIE…]`: answers `code` (301, 302, 303, 307 or 308) with
/// `Location: to` exactly as given (relative or absolute) and `redirectBody`, plus one `Set-Cookie` per
/// `set-cookie` parameter, so tests can follow a redirect and prove what the client carried along.
///
/// Like every lab request, the body (a POST before a 307 or 308) is read in full before the answer, so the
/// connection stays usable for the request that follows the redirect.
struct RedirectEndpoint: ImmediateEndpoint {
    static let codes: Set<Int> = [301, 302, 303, 307, 308]

    func response(to request: LabRequest) -> LabResponse {
        guard let code = Int(request.routeParameter), Self.codes.contains(code) else {
            return .badRequest(
                "/redirect/{code} wants one of \(Self.codes.sorted()), got \"\(request.routeParameter)\"")
        }
        let pairs: [(name: String, value: String)]
        do {
            pairs = try QueryString.pairs(request.query)
        } catch {
            return .badRequest("\(error)")
        }
        guard let location = pairs.last(where: { $0.name == "to" })?.value, !location.isEmpty else {
            return .badRequest("/redirect/{code} wants ?to=URL-or-path")
        }
        guard CookieHeader.isSingleLine(location) else { return .badRequest("the to= target contains a line break") }
        var response = LabResponse.redirect(HTTPResponseStatus(statusCode: code), to: location)
        for cookie in pairs where cookie.name == "set-cookie" {
            guard CookieHeader.isSingleLine(cookie.value) else {
                return .badRequest("the set-cookie value contains a line break")
            }
            response.headers.add(name: "set-cookie", value: cookie.value)
        }
        return response
    }
}

extension LabResponse {
    /// The body of every lab redirect: a client that reports it reported an intermediate response.
    static let redirectBody = "redirect body — must not be reported"

    /// `status` with `Location: location` and `redirectBody`.
    static func redirect(_ status: HTTPResponseStatus, to location: String) -> LabResponse {
        var response = LabResponse.text(redirectBody, status: status)
        response.headers.add(name: "location", value: location)
        return response
    }
}
