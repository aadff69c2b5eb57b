import Foundation
import NIOCore
import NIOHTTP1

/// `POST /session/login` with `{"user": "…", "password": "lab-password"}`: 200 with
/// `{"token": "…", "user": "…", "address": "…"}` and a `lab_session` cookie, both good only on
/// the address that served the login; 401 for another password, 400 for a body that is not
/// such an object, 405 for another method.
struct LoginEndpoint: ImmediateEndpoint {
    let ledger: SessionLedger

    func response(to request: LabRequest) -> LabResponse {
        guard request.head.method == .POST else {
            var refusal = LabResponse.text("login takes POST\n", status: .methodNotAllowed)
            refusal.headers.add(name: "allow", value: "POST")
            return refusal
        }
        let body = Data(request.body.readableBytesView)
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let user = object["user"] as? String, !user.isEmpty, let password = object["password"] as? String
        else {
            return .badRequest(#"login wants a JSON object {"user": "…", "password": "…"}"#)
        }
        guard password == LabSession.password else {
            return .json(.object([("error", .string("wrong password for user \(user)"))]), status: .unauthorized)
        }
        let address = request.connection.localAddress ?? "?"
        let opened = ledger.open(user: user, address: address)
        var response = LabResponse.json(.object([
            ("token", .string(opened.token)), ("user", .string(user)), ("address", .string(address)),
        ]))
        response.headers.add(name: "set-cookie", value: "\(LabSession.cookieName)=\(opened.cookie); Path=/; HttpOnly")
        return response
    }
}
