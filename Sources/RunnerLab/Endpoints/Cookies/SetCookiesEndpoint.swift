/// `/cookies/set?name=value&…[&attrs=ATTRIBUTES]`: 200 with one `Set-Cookie: name=value` per pair, each
/// followed by `; ATTRIBUTES` when `attrs` is given (URL-encoded, e.g. `Path%3D%2F%3B%20Max-Age%3D60`);
/// the body lists the headers set, `{"set_cookies":["name=value; …",…]}`.
struct SetCookiesEndpoint: ImmediateEndpoint {
    /// The query parameter that carries attributes rather than a cookie.
    static let attributesParameter = "attrs"

    func response(to request: LabRequest) -> LabResponse {
        let pairs: [(name: String, value: String)]
        do {
            pairs = try QueryString.pairs(request.query)
        } catch {
            return .badRequest("\(error)")
        }
        let attributes = pairs.filter { $0.name == Self.attributesParameter }.map(\.value).joined(separator: "; ")
        guard CookieHeader.isSingleLine(attributes) else { return .badRequest("attrs contains a line break") }
        let cookies = pairs.filter { $0.name != Self.attributesParameter }
        guard !cookies.isEmpty else { return .badRequest("/cookies/set wants at least one name=value") }
        var values: [String] = []
        for cookie in cookies {
            guard HeadersEndpoint.isToken(cookie.name) else {
                return .badRequest("\"\(cookie.name)\" is not a valid cookie name")
            }
            // A ";" would smuggle attributes into the value; attributes go in attrs.
            guard CookieHeader.isSingleLine(cookie.value), !cookie.value.contains(";") else {
                return .badRequest("the value of cookie \(cookie.name) contains \";\" or a line break")
            }
            let pair = "\(cookie.name)=\(cookie.value)"
            values.append(attributes.isEmpty ? pair : "\(pair); \(attributes)")
        }
        var response = LabResponse.json(.object([("set_cookies", .array(values.map(JSONValue.string)))]))
        for value in values { response.headers.add(name: "set-cookie", value: value) }
        return response
    }
}
