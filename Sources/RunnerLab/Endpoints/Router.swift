import NIOCore

/// Maps request paths to endpoints; the first matching route wins, anything else is a 404.
struct Router: Sendable {
    /// How a route matches a path.
    enum Pattern: Sendable {
        /// The whole path.
        case exact(String)
        /// A path starting with this prefix; the rest becomes the request's `routeParameter`.
        case prefix(String)
    }

    struct Route: Sendable {
        let pattern: Pattern
        let endpoint: any Endpoint
    }

    let routes: [Route]

    /// The lab's endpoints, served on every address and port; HTTPDNS lookups are counted in `httpdns`.
    static func standard(
        httpdns: HTTPDNSLedger, flaky: FlakyLedger = FlakyLedger(), sessions: SessionLedger = SessionLedger()
    ) -> Router {
        Router(routes: [
            Route(pattern: .exact("/echo"), endpoint: EchoEndpoint()),
            Route(pattern: .prefix("/status/"), endpoint: StatusEndpoint()),
            Route(pattern: .prefix("/delay/"), endpoint: DelayEndpoint()),
            Route(pattern: .prefix("/bytes/"), endpoint: BytesEndpoint()),
            Route(pattern: .exact("/json"), endpoint: JSONEndpoint()),
            Route(pattern: .exact("/headers"), endpoint: HeadersEndpoint()),
            Route(pattern: .exact(LabMarkup.path), endpoint: MarkupEndpoint()),
            Route(pattern: .prefix("/redirect/"), endpoint: RedirectEndpoint()),
            Route(pattern: .prefix("/redirect-chain/"), endpoint: RedirectChainEndpoint()),
            Route(pattern: .exact("/redirect-loop"), endpoint: RedirectLoopEndpoint()),
            Route(pattern: .exact("/cookies"), endpoint: CookiesEndpoint()),
            Route(pattern: .exact("/cookies/set"), endpoint: SetCookiesEndpoint()),
            Route(pattern: .prefix("/flaky/"), endpoint: FlakyEndpoint(ledger: flaky)),
            Route(pattern: .exact("/session/login"), endpoint: LoginEndpoint(ledger: sessions)),
            Route(pattern: .exact("/session/me"), endpoint: SessionEndpoint(ledger: sessions)),
            Route(pattern: .exact("/httpdns/dnspod/d"), endpoint: DNSPodEndpoint(service: .init(.dnspod, httpdns))),
            Route(pattern: .prefix("/httpdns/alibaba/"), endpoint: AlibabaEndpoint(service: .init(.alibaba, httpdns))),
            Route(pattern: .exact("/v2/d"), endpoint: AlibabaV2Endpoint(service: .init(.alibabaV2, httpdns))),
            Route(pattern: .exact("/httpdns/doh/resolve"), endpoint: DoHJSONEndpoint(service: .init(.dohJSON, httpdns))),
            Route(
                pattern: .exact("/httpdns/volcengine/resolve"),
                endpoint: VolcengineEndpoint(service: .init(.volcengine, httpdns))),
            Route(pattern: .exact("/httpdns/json/v1/resolve"), endpoint: InHouseJSONEndpoint(service: .init(.json, httpdns))),
            Route(pattern: .exact("/dns-query"), endpoint: DoHEndpoint(service: .init(.doh, httpdns))),
        ])
    }

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let path = request.path
        for route in routes {
            var routed = request
            switch route.pattern {
            case .exact(let expected) where path == expected:
                return route.endpoint.respond(to: routed, on: eventLoop)
            case .prefix(let prefix) where path.hasPrefix(prefix):
                routed.routeParameter = String(path.dropFirst(prefix.count))
                return route.endpoint.respond(to: routed, on: eventLoop)
            default:
                continue
            }
        }
        return eventLoop.makeSucceededFuture(.text("no lab endpoint at \(path)\n", status: .notFound))
    }
}
