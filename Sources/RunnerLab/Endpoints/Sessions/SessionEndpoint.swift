import NIOCore
import NIOHTTP1

/// `GET /session/me`: 200 with `{"user", "via", "address"}` when the request carries a session
/// `/session/login` opened on this same address — `Authorization: Bearer TOKEN` (checked
/// first) or the `lab_session` cookie; 401 saying why otherwise, e.g. that the session belongs
/// to another address.
struct SessionEndpoint: ImmediateEndpoint {
    let ledger: SessionLedger

    func response(to request: LabRequest) -> LabResponse {
        let address = request.connection.localAddress ?? "?"
        var found: (session: SessionLedger.Session, via: String)?
        if let authorization = request.head.headers.first(name: "authorization") {
            guard authorization.hasPrefix("Bearer "), let session = ledger.session(token: String(authorization.dropFirst(7))) else {
                return refusal("unknown bearer token")
            }
            found = (session, "token")
        } else if let cookie = CookieHeader.pairs(request.head.headers).first(where: { $0.name == LabSession.cookieName }) {
            guard let session = ledger.session(cookie: cookie.value) else { return refusal("unknown session cookie") }
            found = (session, "cookie")
        }
        guard let (session, via) = found else { return refusal("no session: send the login's token or its cookie") }
        guard session.address == address else {
            return refusal("this session belongs to \(session.address), not to \(address)")
        }
        return .json(.object([("user", .string(session.user)), ("via", .string(via)), ("address", .string(address))]))
    }

    private func refusal(_ reason: String) -> LabResponse {
        var response = LabResponse.json(.object([("error", .string(reason))]), status: .unauthorized)
        response.headers.add(name: "www-authenticate", value: "Bearer")
        return response
    }
}
