import NIOHTTP1

/// `/headers?Name=Value&…`: answers 200 with those response headers set (repeats allowed, e.g. Set-Cookie).
struct HeadersEndpoint: ImmediateEndpoint {
    /// Headers that frame the message; letting a client set them would break the connection, not test it.
    static let reserved: Set<String> = ["content-length", "transfer-encoding", "connection"]

    func response(to request: LabRequest) -> LabResponse {
        let pairs: [(name: String, value: String)]
        do {
            pairs = try QueryString.pairs(request.query)
        } catch {
            return .badRequest("\(error)")
        }
        var set = HTTPHeaders()
        for (name, value) in pairs {
            guard Self.isToken(name) else { return .badRequest("\"\(name)\" is not a valid header name") }
            guard !Self.reserved.contains(name.lowercased()) else {
                return .badRequest("/headers cannot set \(name)")
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                return .badRequest("the value of \(name) contains a line break")
            }
            set.add(name: name, value: value)
        }
        var response = LabResponse.json(.object(EchoEndpoint.mergedHeaders(set)))
        if set.contains(name: "content-type") { response.headers.remove(name: "content-type") }
        response.headers.add(contentsOf: set)
        return response
    }

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }
}
