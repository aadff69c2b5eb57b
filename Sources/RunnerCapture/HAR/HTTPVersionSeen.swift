/// The HTTP version a capture says a request used, whatever the tool's spelling.
public enum HTTPVersionSeen: String, Sendable, Equatable, CaseIterable {
    case http1_0, http1_1, http2, http3, unknown

    /// Reads every spelling the capture tools write: `HTTP/1.1`, `1.1`, `HTTP/2.0`, `http/2.0`,
    /// `HTTP/2`, `h2`, `h3`, `HTTP/3`, `http/2.0+quic/46`, `unknown`, `""`.
    public init(harText text: String) {
        var spelling = text.trimmingCharacters(in: .whitespaces).lowercased()
        // Chrome's gQUIC (`http/2.0+quic/46`) ran over QUIC, as HTTP/3 does: the transport is what a check repeats.
        if spelling.contains("quic") {
            self = .http3
            return
        }
        if spelling.hasPrefix("http/") { spelling.removeFirst("http/".count) }
        switch spelling {
        case "1.0": self = .http1_0
        case "1.1": self = .http1_1
        case "2", "2.0", "h2", "h2c": self = .http2
        case "3", "3.0", "h3": self = .http3
        default:
            // Drafts of h3 name themselves `h3-29` and the like.
            self = spelling.hasPrefix("h3-") ? .http3 : .unknown
        }
    }
}
