import Foundation
import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("Redirect policy", .timeLimit(.minutes(3)))
struct RedirectPolicyTests {
    func url(_ text: String) throws -> PlanURL { try #require(PlanURL.parse(text)) }

    func post(_ text: String) throws -> HopRequest {
        HopRequest(
            method: "POST", url: try url(text),
            headers: [Header(name: "Content-Type", value: "application/json"), Header(name: "Authorization", value: "Bearer t")],
            body: .bytes(Data("{}".utf8)))
    }

    func next(_ status: Int, _ location: String?, _ request: HopRequest, chain: [PlanURL]? = nil, follow: Bool = true, max: Int = 10) -> RedirectStep {
        RedirectPolicy.next(
            status: status, location: location, request: request, chain: chain ?? [request.url], followRedirects: follow,
            maxRedirects: max)
    }

    /// A relative Location resolves against the original-host URL, never the IP URL.
    @Test func relativeLocationKeepsTheOriginalHost() throws {
        guard case .follow(let hop) = next(302, "/v2/login?x=1", try post("http://api.example.com:8080/v1/login")) else {
            Issue.record("expected to follow")
            return
        }
        #expect(hop.url.description == "http://api.example.com:8080/v2/login?x=1")
        let sibling = next(302, "next", try post("http://api.example.com/a/b"))
        guard case .follow(let siblingHop) = sibling else { Issue.record("expected to follow"); return }
        #expect(siblingHop.url.description == "http://api.example.com/a/next")
    }

    @Test(arguments: [301, 302, 303])
    func thoseTurnAPOSTIntoAGETWithoutABody(status: Int) throws {
        guard case .follow(let hop) = next(status, "/done", try post("https://api.example.com/form")) else {
            Issue.record("expected to follow")
            return
        }
        #expect(hop.method == "GET")
        #expect(hop.body == nil)
        #expect(!hop.headers.contains { $0.name == "Content-Type" })
        #expect(hop.headers.contains { $0.name == "Authorization" }, "same host keeps credentials")
    }

    @Test(arguments: [307, 308])
    func thoseResendTheSameMethodAndBytes(status: Int) throws {
        let request = try post("https://api.example.com/upload")
        guard case .follow(let hop) = next(status, "/upload2", request) else { Issue.record("expected to follow"); return }
        #expect(hop.method == "POST")
        #expect(hop.body == request.body)
        #expect(hop.headers == request.headers)
    }

    @Test func a303TurnsAPUTIntoAGETToo() throws {
        var request = try post("https://api.example.com/x")
        request.method = "PUT"
        guard case .follow(let hop) = next(303, "/y", request) else { Issue.record("expected to follow"); return }
        #expect(hop.method == "GET" && hop.body == nil)
    }

    @Test func credentialsStayWithTheirHost() throws {
        guard case .follow(let hop) = next(307, "https://other.example.com/x", try post("https://api.example.com/x")) else {
            Issue.record("expected to follow")
            return
        }
        #expect(!hop.headers.contains { $0.name == "Authorization" })
        #expect(hop.url.host == "other.example.com")
    }

    @Test func notFollowingOrNotARedirectIsFinal() throws {
        let request = try post("https://api.example.com/x")
        #expect(next(302, "/y", request, follow: false) == .final)
        #expect(next(200, "/y", request) == .final)
        #expect(next(304, "/y", request) == .final)
        #expect(next(302, nil, request) == .final)
    }

    @Test func aLoopIsAnErrorNamingTheChain() throws {
        let a = try url("http://api.example.com/a")
        let b = try url("http://api.example.com/b")
        let step = next(302, "/a", HopRequest(method: "GET", url: b, headers: [], body: nil), chain: [a, b])
        #expect(step == .error(TransferError(
            kind: .http, message: "redirect loop: http://api.example.com/a → http://api.example.com/b → http://api.example.com/a")))
    }

    @Test func maxRedirectsBoundsTheChain() throws {
        let a = try url("http://api.example.com/1")
        let b = try url("http://api.example.com/2")
        let step = next(302, "/3", HopRequest(method: "GET", url: b, headers: [], body: nil), chain: [a, b], max: 1)
        #expect(step == .error(TransferError(
            kind: .http,
            message: "more than 1 redirects (max_redirects): http://api.example.com/1 → http://api.example.com/2 → http://api.example.com/3")))
    }

    @Test func aNonHTTPLocationIsAnError() throws {
        let step = next(302, "ftp://files.example.com/x", try post("https://api.example.com/x"))
        guard case .error(let error) = step else { Issue.record("expected an error"); return }
        #expect(error.message == "302 redirect to 'ftp://files.example.com/x', which is not an http(s) URL the runner can follow")
    }

    @Test(arguments: [
        (StrategyKind.trustOverride, PlanURL.Scheme.http, StrategyKind.headerOnly),
        (.headerOnly, .https, .sniResolve),
        (.sniResolve, .http, .sniResolve),
        (.auto, .http, .headerOnly),
        (.system, .https, .system),
    ])
    func eachHopGetsAStrategyItsSchemeAllows(requested: StrategyKind, scheme: PlanURL.Scheme, expected: StrategyKind) {
        #expect(ResultStateMachine.hopStrategy(requested: requested, scheme: scheme) == expected)
    }
}
