import NIOHTTP1

/// Why the RFC 8484 endpoint will not read a request as a DNS query: the HTTP status it answers
/// with and the reason, in the body so a failing test reads well.
struct DoHRefusal: Error, CustomStringConvertible {
    let status: HTTPResponseStatus
    let reason: String

    var description: String { "\(status.code): \(reason)" }

    var response: LabResponse {
        var response = LabResponse.text("bad DoH request: \(reason)\n", status: status)
        if status == .methodNotAllowed { response.headers.add(name: "allow", value: "GET, POST") }
        return response
    }
}
