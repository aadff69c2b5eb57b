import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// `request.grpc` and `expect.grpc`: the request a call makes (POST, the method's path, gRPC's
/// headers, the framed message, HTTP/2), the expectations' defaults, and every refusal as its
/// message reads.
@Suite("gRPC calls in a plan")
struct GRPCDecodingTests {
    /// One scenario whose request line (line 4) is `request` and, when given, `expect` (line 5).
    static func plan(request: String, expect: String? = nil, extra: [String] = []) -> String {
        var lines = ["version: 1", "scenarios:", "  - name: s"] + extra.map { "    \($0)" }
        lines.append("    request: \(request)")
        if let expect { lines.append("    expect: \(expect)") }
        return lines.joined(separator: "\n") + "\n"
    }

    func scenario(_ yaml: String) throws -> Scenario {
        let workspace = try PlanWorkspace()
        let plan = try PlanLoader.load(path: try workspace.write("plan.yaml", yaml), variables: [:], environment: [:])
        return try #require(plan.scenarios.first)
    }

    /// `line:column: message` of each error.
    func errors(_ yaml: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", yaml)
        return loadErrors(path).map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)" }
    }

    @Test func aHealthCheckIsAnHTTP2PostOfTheFramedRequest() throws {
        let scenario = try scenario(Self.plan(
            request: #"{url: "https://api.example.com:8443", headers: {user-agent: probe}, grpc: {health: payments, metadata: {x-tenant: a, trace-bin: AAEC}}}"#))
        let request = scenario.request
        #expect(request.method == "POST")
        #expect(request.url.description == "https://api.example.com:8443/grpc.health.v1.Health/Check")
        #expect(request.headers.map { "\($0.name): \($0.value)" } == [
            "content-type: application/grpc", "te: trailers", "user-agent: probe", "x-tenant: a", "trace-bin: AAEC",
        ])
        // 0 (not compressed), length 10, then HealthCheckRequest{service: "payments"}: 0x0A 0x08 "payments".
        #expect(request.body == .bytes(Data([0, 0, 0, 0, 10, 0x0A, 8]) + Data("payments".utf8)))
        #expect(scenario.settings.http == .http2)
        #expect(scenario.expect.grpc == GRPCExpectation(status: .ok, serving: .serving))
        #expect(request.grpc?.isHealthCheck == true)
    }

    @Test func theServersHealthIsAnEmptyMessageAndAUnaryCallCarriesItsBytes() throws {
        let server = try scenario(Self.plan(request: #"{url: "http://api.example.com:50051", grpc: {health: ""}}"#))
        #expect(server.request.body == .bytes(Data([0, 0, 0, 0, 0])))
        let unary = try scenario(Self.plan(
            request: #"{url: "http://api.example.com:50051/", grpc: {method: /pkg.Svc/Get, message_base64: "CgR0ZXN0"}}"#,
            expect: "{grpc: {status: NOT_FOUND}}"))
        #expect(unary.request.url.pathAndQuery == "/pkg.Svc/Get")
        #expect(unary.request.body == .bytes(Data([0, 0, 0, 0, 6, 0x0A, 4]) + Data("test".utf8)))
        #expect(unary.expect.grpc == GRPCExpectation(status: GRPCStatusCode(rawValue: 5), serving: nil))
        let numbered = try scenario(Self.plan(request: #"{url: "http://h:1", grpc: {health: x}}"#, expect: "{grpc: {status: 14}}"))
        #expect(numbered.expect.grpc == GRPCExpectation(status: GRPCStatusCode(rawValue: 14), serving: nil), "an error expected: no serving status")
    }

    @Test func refusals() throws {
        let cases: [(String, String?, [String], String)] = [
            (#"{url: "https://h", grpc: {health: a, method: /p.S/M}}"#, nil, [], "4:51: only one of 'health' and 'method' may be given in request.grpc of scenario 's'; found 'health' and 'method'"),
            (#"{url: "https://h", grpc: {}}"#, nil, [], "4:33: missing 'health' or 'method' in request.grpc of scenario 's'"),
            (#"{url: "https://h", grpc: {method: pkg.S/M}}"#, nil, [], "4:48: expected a gRPC method such as /pkg.Service/Method"),
            (#"{url: "https://h", grpc: {health: a, message_base64: AA==}}"#, nil, [], "4:51: 'message_base64' in request.grpc of scenario 's' is for 'method'"),
            (#"{url: "https://h/x", grpc: {health: a}}"#, nil, [], "4:20: the URL of a gRPC call names the server only (https://h)"),
            (#"{url: "https://h", body: x, grpc: {health: a}}"#, nil, [], "4:33: 'body' in request of scenario 's': a gRPC call's body is its message"),
            (#"{url: "https://h", method: GET, grpc: {health: a}}"#, nil, [], "4:33: a gRPC call is a POST"),
            (#"{url: "https://h", grpc: {health: a, metadata: {grpc-timeout: 1S}}}"#, nil, [], "'grpc-timeout' in request.grpc of scenario 's' is set by gRPC itself"),
            (#"{url: "https://h", grpc: {health: a, metadata: {X-Tenant: a}}}"#, nil, [], "gRPC metadata names are lower case in request.grpc of scenario 's': write 'x-tenant'"),
            (#"{url: "https://h", grpc: {health: a}}"#, nil, ["http: 1.1"], "makes a gRPC call, which needs HTTP/2, but its 'http' is 1.1"),
            (#"{url: "https://h"}"#, "{grpc: {status: OK}}", [], "5:14: 'expect.grpc' in scenario 's' checks a gRPC call's answer, but the request makes none: add 'grpc' to it"),
            (#"{url: "https://h", grpc: {method: /p.S/M}}"#, "{grpc: {serving: SERVING}}", [], "'serving' in expect.grpc of scenario 's' is a health check's answer; /p.S/M is not one"),
            (#"{url: "https://h", grpc: {health: a}}"#, "{grpc: {status: NOT_FOUNDD}}", [], "did you mean 'NOT_FOUND'?"),
        ]
        for (request, expect, extra, message) in cases {
            let found = try errors(Self.plan(request: request, expect: expect, extra: extra))
            #expect(found.contains { $0.contains(message) }, "\(request): \(found)")
        }
    }
}
