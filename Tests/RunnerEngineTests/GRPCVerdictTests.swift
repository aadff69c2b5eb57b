import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// A gRPC call's answer as values: the status from the trailers or a Trailers-Only answer's
/// headers, the message percent-decoded, a health check's serving status from its message, and
/// what `expect.grpc` makes of each.
@Suite("gRPC answers, as values", .timeLimit(.minutes(1)))
struct GRPCVerdictTests {
    static let health = GRPCCall(method: .health(service: "payments"))
    static let grpcHeaders = [Header(name: "content-type", value: "application/grpc")]

    /// A health answer's body: the framed `HealthCheckResponse{status}` (nil: no message).
    static func body(serving: Int?) -> Data {
        guard let serving else { return Data() }
        let message: [UInt8] = serving == 0 ? [] : [0x08, UInt8(serving)]
        return Data([0, 0, 0, 0, UInt8(message.count)] + message)
    }

    static func observed(
        headers: [Header] = grpcHeaders, trailers: [Header], body: Data = Data(), version: String = "2"
    ) -> ObservedResponse {
        var observed = ObservedResponse(status: 200, headers: headers, body: body, httpVersion: version)
        observed.trailers = trailers
        return observed
    }

    @Test func aServingHealthCheckPasses() {
        let observed = Self.observed(trailers: [Header(name: "grpc-status", value: "0")], body: Self.body(serving: 1))
        let answer = GRPCVerdict.answer(to: Self.health, observed: observed)
        #expect(answer == GRPCAnswer(status: .ok, serving: .serving))
        #expect(answer.summary == "OK (0), serving SERVING")
        #expect(GRPCVerdict.problems(GRPCExpectation(status: .ok, serving: .serving), answer: answer, observed: observed).isEmpty)
    }

    @Test func notServingAndUnknownAreTheHealthAnswersOwn() {
        let expectation = GRPCExpectation(status: .ok, serving: .serving)
        let notServing = Self.observed(trailers: [Header(name: "grpc-status", value: "0")], body: Self.body(serving: 2))
        let answer = GRPCVerdict.answer(to: Self.health, observed: notServing)
        #expect(GRPCVerdict.problems(expectation, answer: answer, observed: notServing).map(\.description) == [
            "grpc serving: expected SERVING, got NOT_SERVING",
        ])
        // proto3 leaves out the default: an empty message is UNKNOWN.
        let empty = Self.observed(trailers: [Header(name: "grpc-status", value: "0")], body: Self.body(serving: 0))
        #expect(GRPCVerdict.answer(to: Self.health, observed: empty).serving == .unknown)
    }

    @Test func aTrailersOnlyErrorIsReadFromTheHeadersItsMessageDecoded() {
        let headers = Self.grpcHeaders + [
            Header(name: "grpc-status", value: "5"), Header(name: "grpc-message", value: "unknown%20service%20%27payments%27"),
        ]
        let observed = Self.observed(headers: headers, trailers: [])
        let answer = GRPCVerdict.answer(to: Self.health, observed: observed)
        #expect(answer == GRPCAnswer(status: GRPCStatusCode(rawValue: 5), message: "unknown service 'payments'"))
        let problems = GRPCVerdict.problems(GRPCExpectation(status: .ok, serving: .serving), answer: answer, observed: observed)
        #expect(problems.map(\.description) == ["grpc status: expected OK, got NOT_FOUND: unknown service 'payments'"])
        #expect(problems.map(\.kind) == [.grpc])
        #expect(GRPCVerdict.problems(GRPCExpectation(status: GRPCStatusCode(rawValue: 5)), answer: answer, observed: observed).isEmpty)
    }

    @Test func anHTTP1AnswerOrOneWithoutStatusIsNoGRPC() {
        let http1 = Self.observed(headers: [Header(name: "content-type", value: "text/plain")], trailers: [], version: "1.1")
        let answer = GRPCVerdict.answer(to: Self.health, observed: http1)
        #expect(GRPCVerdict.problems(GRPCExpectation(), answer: answer, observed: http1).map(\.description) == [
            "grpc: expected an answer over HTTP/2, got HTTP/1.1: the server offered no h2, so it takes no gRPC call here",
        ])
        let html = Self.observed(headers: [Header(name: "content-type", value: "text/html")], trailers: [])
        #expect(GRPCVerdict.problems(GRPCExpectation(), answer: GRPCVerdict.answer(to: Self.health, observed: html), observed: html)
            .map(\.description) == ["grpc status: expected OK, got no grpc-status in the answer (HTTP 200, content-type text/html): not a gRPC service"])
    }

    @Test func theHealthMessageReaderSkipsOtherFieldsAndRefusesBrokenOnes() {
        #expect(GRPCVerdict.servingStatus(in: Data([0x12, 0x02, 0x61, 0x62, 0x08, 0x02])) == .notServing, "an unknown string field first")
        #expect(GRPCVerdict.servingStatus(in: Data([0x08])) == nil, "a key without its varint")
        #expect(GRPCVerdict.servingStatus(in: Data([0x12, 0x09, 0x61])) == nil, "a length past the end")
        #expect(GRPCVerdict.firstMessage(in: Data([0, 0, 0, 0, 4, 0x08])) == nil, "a message cut short")
        #expect(GRPCVerdict.firstMessage(in: Data([1, 0, 0, 0, 0])) == nil, "a compressed message")
    }
}
