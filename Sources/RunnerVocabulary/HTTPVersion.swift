/// The HTTP version a request asks for (the plan's `http:`); raw values are the plan's spelling.
public enum HTTPVersion: String, Sendable, Equatable {
    case http1_1 = "1.1"
    /// h2 over ALPN for https, prior knowledge for http.
    case http2 = "2"
    /// https: ALPN decides (h2 preferred); http: 1.1.
    case auto
}
