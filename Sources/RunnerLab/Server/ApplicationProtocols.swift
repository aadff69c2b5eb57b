/// What a lab address offers by ALPN on its TLS port.
enum ApplicationProtocols: Sendable, CaseIterable {
    /// "h2" first, then "http/1.1": clients that speak HTTP/2 get it, the others HTTP/1.1.
    case http2AndHTTP1
    /// "http/1.1" only, so even a client that offers h2 ends up on HTTP/1.1.
    case http1Only

    /// The ALPN tokens in the server's order of preference.
    var alpnTokens: [String] {
        switch self {
        case .http2AndHTTP1: ["h2", "http/1.1"]
        case .http1Only: ["http/1.1"]
        }
    }
}
