import NIOConcurrencyHelpers

/// What a plan needs to log in to the lab (`/session/login`, then `/session/me`).
public enum LabSession {
    /// The one password the lab accepts, for any user.
    public static let password = "lab-password"
    /// The session cookie the login sets.
    public static let cookieName = "lab_session"
}

/// The sessions `/session/login` opened: each token and cookie with its user and the lab address
/// that opened it (a session lives on one server, as a real service's do).
final class SessionLedger: Sendable {
    struct Session: Sendable {
        var user: String
        /// The local address the login arrived on.
        var address: String
    }

    private let sessions = NIOLockedValueBox(
        (tokens: [String: Session](), cookies: [String: Session](), logins: 0))

    /// Opens a session for `user` on `address`: a bearer token and a cookie value.
    func open(user: String, address: String) -> (token: String, cookie: String) {
        let token = Self.randomHex(), cookie = Self.randomHex()
        sessions.withLockedValue { state in
            state.tokens[token] = Session(user: user, address: address)
            state.cookies[cookie] = Session(user: user, address: address)
            state.logins += 1
        }
        return (token, cookie)
    }

    func session(token: String) -> Session? { sessions.withLockedValue { $0.tokens[token] } }
    func session(cookie: String) -> Session? { sessions.withLockedValue { $0.cookies[cookie] } }

    /// Every bearer token handed out so far.
    var tokens: [String] { sessions.withLockedValue { Array($0.tokens.keys) } }

    /// Logins that succeeded so far.
    var logins: Int { sessions.withLockedValue { $0.logins } }

    private static func randomHex() -> String {
        (0..<2).map { _ in
            let text = String(UInt64.random(in: .min ... .max), radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
