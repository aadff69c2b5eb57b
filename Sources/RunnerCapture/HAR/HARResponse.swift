/// A captured response: what a check could expect.
public struct HARResponse: Sendable, Equatable {
    /// 0 when the request got no answer.
    public var status: Int
    public var statusText: String?
    /// In the capture's order, pseudo-headers (Charles' `:status`) included; see `regularHeaders`.
    public var headers: [HARHeader]
    public var cookies: [HARCookie]
    public var content: HARBody?
    /// nil when the capture left it empty.
    public var redirectURL: String?

    public init(status: Int, statusText: String?, headers: [HARHeader], cookies: [HARCookie], content: HARBody?, redirectURL: String?) {
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.cookies = cookies
        self.content = content
        self.redirectURL = redirectURL
    }

    public var regularHeaders: [HARHeader] { headers.filter { !$0.isPseudo } }
}
