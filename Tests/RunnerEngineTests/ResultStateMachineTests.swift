import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// The hop loop without sockets: made-up outcomes and times in, the machine's actions out.
@Suite("Result state machine: redirects, cookies, timeout, retries, probe, interruption", .timeLimit(.minutes(1)))
struct ResultStateMachineTests {
    typealias Action = ResultStateMachine.Action

    static let pinned = IPAddress("192.0.2.1")
    static let date = Date(timeIntervalSince1970: 1_795_251_600)

    static func planned(
        url: String = "https://api.example.com/start", strategy: StrategyKind = .sniResolve,
        timeout: Duration = .seconds(10), resolveError: TransferError? = nil,
        configure: (inout Scenario) -> Void = { _ in }
    ) throws -> PlannedResult {
        var settings = TransferSettings()
        settings.timeout = timeout
        let request = RequestSpec(method: "GET", url: try #require(PlanURL.parse(url)), headers: [], body: nil)
        var scenario = Scenario(
            name: "s", location: SourceLocation(file: "p.yaml", line: 1, column: 1), tags: [], domainMap: "m",
            strategies: [strategy], ips: .first, ipVersion: .any, settings: settings, request: request,
            expect: Expectations())
        configure(&scenario)
        let resolution = Resolution(
            addresses: [try #require(pinned)], source: "static map 'm'", lookupTime: .seconds(0.004), notes: ["from the list"])
        return PlannedResult(
            scenario: scenario, strategy: strategy, ip: resolveError == nil ? pinned : nil,
            resolution: resolveError == nil ? resolution : nil, resolveError: resolveError)
    }

    static func response(
        _ status: Int, headers: [Header] = [], connectedIP: String? = "192.0.2.1"
    ) -> TransferOutcome {
        TransferOutcome(
            evidence: TransferEvidence(connectedIP: connectedIP, connectedPort: 443, httpVersion: "2"),
            result: .success(TransferResponse(status: status, headers: headers, body: Data(), bodyLength: 0, bodySHA256: "")))
    }

    static func failure(_ kind: TransferError.Kind, _ message: String) -> TransferOutcome {
        TransferOutcome(evidence: TransferEvidence(), result: .failure(TransferError(kind: kind, message: message, curlCode: 7)))
    }

    // MARK: Body digest

    @Test("a hop's body is hashed when an output shows the digest or the scenario expects one, not otherwise")
    func bodyDigestOnlyWhereSomethingReadsIt() throws {
        var unread = ResultStateMachine(planned: try Self.planned(), retries: 0, digestsBodies: false)
        #expect(try #require(unread.start(now: .zero, date: Self.date).spec).digestsBody == false)
        var shown = ResultStateMachine(planned: try Self.planned(), retries: 0, digestsBodies: true)
        #expect(try #require(shown.start(now: .zero, date: Self.date).spec).digestsBody)
        let expecting = try Self.planned { $0.expect.body = [.sha256(String(repeating: "0", count: 64))] }
        var expected = ResultStateMachine(planned: expecting, retries: 0, digestsBodies: false)
        #expect(try #require(expected.start(now: .zero, date: Self.date).spec).digestsBody, "a body: {sha256} expectation needs it")
    }

    // MARK: Redirects

    @Test("a redirect on the same host keeps the pin; the result has both hops and passes")
    func redirectOnTheSameHostKeepsThePin() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        let first = try #require(machine.start(now: .seconds(100), date: Self.date).spec)
        #expect(first.url == "https://api.example.com/start")
        #expect(first.connectTo == "api.example.com:443:192.0.2.1:443")

        let second = try #require(machine.transferFinished(
            Self.response(302, headers: [Header(name: "Location", value: "/next")]), now: .seconds(100.2), date: Self.date).spec)
        #expect(second.url == "https://api.example.com/next")
        #expect(second.connectTo == "api.example.com:443:192.0.2.1:443")

        let result = try #require(machine.transferFinished(Self.response(200), now: .seconds(100.5), date: Self.date).result)
        #expect(result.outcome.isPassed)
        #expect(result.evidence.hops.map(\.originalURL) == ["https://api.example.com/start", "https://api.example.com/next"])
        #expect(result.evidence.hops.map(\.timings.resolve) == [.seconds(0.004), nil], "only the hop a lookup was made for")
        #expect(abs((result.duration - .seconds(0.5)).inSeconds) < 1e-9)
        #expect(result.evidence.notes == ["from the list"])
    }

    @Test("a redirect to another host is looked up through the map and pinned to its answer")
    func redirectToAnotherHostResolves() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Self.date)
        let lookup = machine.transferFinished(
            Self.response(301, headers: [Header(name: "Location", value: "https://cdn.example.com/x")]), now: .seconds(0.1), date: Self.date)
        guard case .resolve(let host, let source) = lookup else {
            Issue.record("expected a lookup, got \(lookup)")
            return
        }
        #expect(host == "cdn.example.com")
        #expect(source == .domainMap)
        let answer = Resolution(addresses: [try #require(IPAddress("198.51.100.7"))], source: "static map 'm'", lookupTime: .seconds(0.002))
        let spec = try #require(machine.resolved(.success(answer), now: .seconds(0.2), date: Self.date).spec)
        #expect(spec.connectTo == "cdn.example.com:443:198.51.100.7:443")

        let result = try #require(machine.transferFinished(
            Self.response(200, connectedIP: "198.51.100.7"), now: .seconds(0.3), date: Self.date).result)
        #expect(result.outcome.isPassed)
        #expect(result.evidence.ipSource == "static map 'm'; hop 2: static map 'm'")
        #expect(result.evidence.hops.map(\.connection.pinnedIP) == ["192.0.2.1", "198.51.100.7"])
    }

    @Test("a redirect whose host does not resolve is an error that names the redirect")
    func redirectLookupFailure() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Self.date)
        _ = machine.transferFinished(
            Self.response(302, headers: [Header(name: "Location", value: "https://elsewhere.example/")]), now: .seconds(0.1), date: Self.date)
        let result = try #require(machine.resolved(
            .failure(TransferError(kind: .resolve, message: "host 'elsewhere.example' is not in static map 'm'")),
            now: .seconds(0.2), date: Self.date).result)
        #expect(result.outcome.error?.message
            == "redirect to https://elsewhere.example/: host 'elsewhere.example' is not in static map 'm'")
    }

    // MARK: Cookies

    @Test("a cookie set by one hop is sent on the next, and the result notes the jar")
    func cookiesCarryAcrossHops() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        let first = try #require(machine.start(now: .seconds(0), date: Self.date).spec)
        #expect(!first.headers.contains { $0.name == "Cookie" })
        let second = try #require(machine.transferFinished(
            Self.response(302, headers: [
                Header(name: "Set-Cookie", value: "session=abc; Path=/"), Header(name: "Location", value: "/home"),
            ]), now: .seconds(0.1), date: Self.date).spec)
        #expect(second.headers.filter { $0.name == "Cookie" }.map(\.value) == ["session=abc"])
        let result = try #require(machine.transferFinished(Self.response(200), now: .seconds(0.2), date: Self.date).result)
        #expect(result.evidence.notes.last == "cookies kept: session (api.example.com/)")
    }

    // MARK: The timeout covers every hop

    @Test("each hop gets what is left of the timeout; none starts once it is spent")
    func timeoutCoversEveryHop() throws {
        var machine = ResultStateMachine(planned: try Self.planned(timeout: .seconds(10)), retries: 0)
        #expect(try #require(machine.start(now: .seconds(50), date: Self.date).spec).timeout == .seconds(10))
        let second = try #require(machine.transferFinished(
            Self.response(302, headers: [Header(name: "Location", value: "/a")]), now: .seconds(54), date: Self.date).spec)
        #expect(second.timeout == .seconds(6))
        let result = try #require(machine.transferFinished(
            Self.response(302, headers: [Header(name: "Location", value: "/b")]), now: .seconds(60), date: Self.date).result)
        #expect(result.outcome.error?.kind == .timeout)
        #expect(result.outcome.error?.message
            == "timed out (timeout 10s) after 2 hop(s), before https://api.example.com/b")
    }

    // MARK: Retries

    @Test("a failure earns a fresh attempt; one that then passes carries the earlier attempt")
    func retryAfterFailure() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 2)
        _ = machine.start(now: .seconds(0), date: Self.date)
        let retry = try #require(machine.transferFinished(Self.response(503), now: .seconds(1), date: Self.date).spec,
            "a failed status starts the next attempt at once")
        #expect(retry.url == "https://api.example.com/start")
        #expect(retry.timeout == .seconds(10), "a new attempt has the whole timeout again")
        let result = try #require(machine.transferFinished(Self.response(200), now: .seconds(1.25), date: Self.date).result)
        #expect(result.outcome.isPassed)
        #expect(result.earlierAttempts.count == 1)
        #expect(abs(((result.earlierAttempts.first?.duration ?? .zero) - .seconds(1)).inSeconds) < 1e-9)
        #expect(abs((result.duration - .seconds(0.25)).inSeconds) < 1e-9)
        #expect(result.evidence.hops.count == 1, "evidence is the last attempt's")
        #expect(result.isFlaky)
    }

    @Test("retries run out: the last attempt's verdict stands, with every earlier one")
    func retriesRunOut() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 2)
        _ = machine.start(now: .seconds(0), date: Self.date)
        #expect(machine.transferFinished(Self.failure(.connect, "refused"), now: .seconds(1), date: Self.date).spec != nil)
        #expect(machine.transferFinished(Self.failure(.connect, "refused"), now: .seconds(2), date: Self.date).spec != nil)
        let result = try #require(machine.transferFinished(Self.failure(.connect, "refused"), now: .seconds(3), date: Self.date).result)
        #expect(result.outcome.error?.kind == .connect)
        #expect(result.attemptCount == 3)
    }

    @Test("a host that did not resolve is reported at once and never retried")
    func resolveErrorIsNotRetried() throws {
        let error = TransferError(kind: .resolve, message: "host 'api.example.com' is not in static map 'm'")
        var machine = ResultStateMachine(planned: try Self.planned(resolveError: error), retries: 3)
        let result = try #require(machine.start(now: .seconds(0), date: Self.date).result)
        #expect(result.outcome.error == error)
        #expect(result.earlierAttempts.isEmpty)
    }

    // MARK: Trust override's probe

    @Test("a failed trust-override handshake is followed by an SNI probe that diagnoses it")
    func trustOverrideFailureProbes() throws {
        var machine = ResultStateMachine(planned: try Self.planned(strategy: .trustOverride), retries: 0)
        let first = try #require(machine.start(now: .seconds(0), date: Self.date).spec)
        #expect(first.url == "https://192.0.2.1/start")
        let probeAction = machine.transferFinished(Self.failure(.tls, "handshake failed"), now: .seconds(0.1), date: Self.date)
        guard case .probe(let probe) = probeAction else {
            Issue.record("expected a probe, got \(probeAction)")
            return
        }
        #expect(probe.connectOnly)
        #expect(probe.connectTo == "api.example.com:443:192.0.2.1:443", "the probe sends SNI to the same IP")
        let result = try #require(machine.probeFinished(Self.response(200), now: .seconds(0.2)).result)
        let error = try #require(result.outcome.error)
        #expect(error.kind == .tls)
        #expect(error.diagnosis?.contains("sni-resolve") == true, "\(error.diagnosis ?? "no diagnosis")")
    }

    // MARK: The tls: limits' probe

    @Test("a handshake the tls: limits refused is followed by one without them that says what the server offers")
    func limitsFailureProbesWithoutThem() throws {
        let planned = try Self.planned { $0.settings.tls = ClientTLS(minVersion: .v1_2, ciphers: TLSProfile.iosATS.ciphers, profile: .iosATS) }
        var machine = ResultStateMachine(planned: planned, retries: 0)
        let first = try #require(machine.start(now: .seconds(0), date: Self.date).spec)
        #expect(first.tls.client.profile == .iosATS)
        let probeAction = machine.transferFinished(Self.failure(.tls, "handshake failure"), now: .seconds(0.1), date: Self.date)
        guard case .probe(let probe) = probeAction else {
            Issue.record("expected a probe, got \(probeAction)")
            return
        }
        #expect(probe.connectOnly)
        #expect(probe.tls.client == ClientTLS(), "the probe offers everything")
        #expect(probe.connectTo == first.connectTo, "the same IP, the same name")
        #expect(probe.poolKey != first.poolKey, "a connection of its own")
        var offered = Self.response(200)
        offered.evidence.tls = TLSSession(version: .v1_2, cipher: "AES128-GCM-SHA256", chainVerified: false, chain: [])
        let result = try #require(machine.probeFinished(offered, now: .seconds(0.2)).result)
        let error = try #require(result.outcome.error)
        #expect(error.kind == .tls)
        #expect(error.diagnosis == "the server at 192.0.2.1:443 negotiates only TLS 1.2 AES128-GCM-SHA256 (no forward secrecy), which an iOS app with ATS refuses")
    }

    @Test("a certificate the verifier refused is not blamed on the tls: limits (no probe)")
    func aVerificationFailureIsNotTheLimits() throws {
        let planned = try Self.planned { $0.settings.tls = ClientTLS(maxVersion: .v1_2) }
        var machine = ResultStateMachine(planned: planned, retries: 0)
        _ = machine.start(now: .seconds(0), date: Self.date)
        var refused = Self.failure(.tls, "certificate verify failed")
        refused.evidence.verification = VerificationFailure(code: 10, reason: "certificate has expired", leaf: nil)
        let result = try #require(machine.transferFinished(refused, now: .seconds(0.1), date: Self.date).result)
        #expect(result.outcome.error?.kind == .tls)
    }

    // MARK: Pin

    @Test("a response from an address other than the pinned one is an error")
    func pinMismatch() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Self.date)
        let result = try #require(machine.transferFinished(
            Self.response(200, connectedIP: "203.0.113.9"), now: .seconds(0.1), date: Self.date).result)
        #expect(result.outcome.error?.message == "connected to 203.0.113.9, but the strategy pinned 192.0.2.1")
    }

    // MARK: Interruption

    @Test("interrupted: an aborted transfer is skipped, not retried")
    func interruptionSkipsAndDoesNotRetry() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 3)
        _ = machine.start(now: .seconds(0), date: Self.date)
        machine.interrupt()
        let result = try #require(machine.transferFinished(Self.failure(.io, "aborted"), now: .seconds(0.1), date: Self.date).result)
        guard case .skipped(let reason) = result.outcome else {
            Issue.record("expected skipped, got \(result.outcome)")
            return
        }
        #expect(reason == "interrupted")
        #expect(result.earlierAttempts.isEmpty)
    }

    @Test("interrupted: no further hop starts after a redirect")
    func interruptionStopsTheChain() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        _ = machine.start(now: .seconds(0), date: Self.date)
        machine.interrupt()
        let result = try #require(machine.transferFinished(
            Self.response(302, headers: [Header(name: "Location", value: "/next")]), now: .seconds(0.1), date: Self.date).result)
        #expect(result.evidence.hops.count == 1)
        if case .skipped = result.outcome {} else { Issue.record("expected skipped, got \(result.outcome)") }
    }

    @Test("interrupted: a verdict already reached stands")
    func interruptionKeepsAFailure() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 2)
        _ = machine.start(now: .seconds(0), date: Self.date)
        machine.interrupt()
        let result = try #require(machine.transferFinished(Self.response(500), now: .seconds(0.1), date: Self.date).result)
        if case .failed = result.outcome {} else { Issue.record("expected failed, got \(result.outcome)") }
        #expect(result.earlierAttempts.isEmpty)
    }

    // MARK: Driver mistakes

    @Test("an event nobody waits for errs the result once, then is ignored")
    func unexpectedEvents() throws {
        var machine = ResultStateMachine(planned: try Self.planned(), retries: 0)
        let result = try #require(machine.probeFinished(Self.response(200), now: .seconds(0)).result)
        #expect(result.outcome.error?.message == "internal error: a probe finished while none was under way")
        guard case .wait = machine.transferFinished(Self.response(200), now: .seconds(0), date: Self.date) else {
            Issue.record("an event after the verdict must do nothing")
            return
        }
    }
}

extension ResultStateMachine.Action {
    var spec: TransferSpec? {
        if case .send(let spec) = self { return spec }
        return nil
    }

    var result: ScenarioResult? {
        if case .finish(let result) = self { return result }
        return nil
    }
}

extension Outcome {
    var error: TransferError? {
        if case .errored(let error) = self { return error }
        return nil
    }
}
