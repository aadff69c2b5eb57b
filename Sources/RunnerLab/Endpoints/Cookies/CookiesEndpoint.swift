/// `/cookies`: the cookies the request carried, `{"cookies":{"name":"value",…}}` (see `CookieHeader.pairs`).
struct CookiesEndpoint: ImmediateEndpoint {
    func response(to request: LabRequest) -> LabResponse {
        let cookies = CookieHeader.pairs(request.head.headers).map { ($0.name, JSONValue.string($0.value)) }
        return .json(.object([("cookies", .object(cookies))]))
    }
}
