/// A captured request: what a check would send again.
public struct HARRequest: Sendable, Equatable {
    public var method: String
    /// The URL as the capture gives it (absolute http or https).
    public var url: String
    public var httpVersion: HTTPVersionSeen
    /// The capture's own spelling of the version (nil when absent).
    public var httpVersionText: String?
    /// Every header in the capture's order, pseudo-headers included (see `regularHeaders`).
    public var headers: [HARHeader]
    public var queryString: [HARQueryParameter]
    public var cookies: [HARCookie]
    public var body: HARBody?

    public init(
        method: String, url: String, httpVersion: HTTPVersionSeen, httpVersionText: String?, headers: [HARHeader],
        queryString: [HARQueryParameter], cookies: [HARCookie], body: HARBody?
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.httpVersionText = httpVersionText
        self.headers = headers
        self.queryString = queryString
        self.cookies = cookies
        self.body = body
    }

    /// The headers a request sends, without HTTP/2's pseudo-headers.
    public var regularHeaders: [HARHeader] { headers.filter { !$0.isPseudo } }
    /// `:authority`, `:method`, `:path`, `:scheme` when the capture listed them.
    public var pseudoHeaders: [HARHeader] { headers.filter(\.isPseudo) }
}
