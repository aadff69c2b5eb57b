/// Why a captured request got no answer worth repeating.
public enum HARFailure: Sendable, Equatable, CustomStringConvertible {
    /// The tool's own error text (`_error`, e.g. `net::ERR_CONNECTION_REFUSED`).
    case error(String)
    /// The entry has no `response` (Proxyman on Windows and Linux).
    case noResponse
    /// `status: 0` with no error text.
    case statusZero

    public var description: String {
        switch self {
        case .error(let text): "failed: \(text)"
        case .noResponse: "no response recorded"
        case .statusZero: "status 0 (no answer)"
        }
    }
}
