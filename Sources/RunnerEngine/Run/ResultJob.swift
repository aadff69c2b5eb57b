import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Carries one planned result through its hops — the request, each redirect the runner
/// follows itself (re-resolved and re-pinned per hop), and a diagnosis probe when trust
/// override fails — to a verdict. Lives on the engine's thread.
final class ResultJob {
    typealias Resolve = (_ host: String, _ completion: @escaping (Result<Resolution, TransferError>) -> Void) -> Void

    let planned: PlannedResult
    private let resolve: Resolve
    private let completion: (ScenarioResult) -> Void
    private var startedAt = DispatchTime.now()
    private var hops: [HopEvidence] = []
    private var chain: [PlanURL] = []
    private var cookies = CookieJar()
    private var notes: [String] = []
    private var ipSource: String

    /// - Parameter resolve: the scenario's domain map, for the hosts redirects lead to.
    init(planned: PlannedResult, resolve: @escaping Resolve, completion: @escaping (ScenarioResult) -> Void) {
        self.planned = planned
        self.resolve = resolve
        self.completion = completion
        if planned.strategy == .system {
            ipSource = "system resolver (libcurl, not pinned)"
        } else {
            ipSource = planned.resolution?.source ?? "not resolved"
        }
        notes = planned.resolution?.notes ?? []
    }

    private var scenario: Scenario { planned.scenario }
    private var tlsIdentity: TLSIdentity {
        TLSIdentity(caFile: scenario.settings.caFile, insecure: scenario.settings.insecure, http: scenario.settings.http)
    }

    func start(on engine: TransferEngine) {
        startedAt = DispatchTime.now()
        if let resolveError = planned.resolveError {
            finish(.errored(resolveError))
            return
        }
        let request = HopRequest(
            method: scenario.request.method, url: scenario.request.url, headers: scenario.request.headers,
            body: scenario.request.body)
        send(request, strategy: planned.strategy, ip: planned.ip, resolveTime: planned.resolution?.lookupTime, on: engine)
    }

    /// Sends one hop within what is left of the scenario's `timeout` (it covers every hop).
    private func send(
        _ request: HopRequest, strategy: StrategyKind, ip: IPAddress?, resolveTime: Double?, on engine: TransferEngine
    ) {
        let remaining = scenario.settings.timeout - .nanoseconds(Int64(elapsed * 1e9))
        guard remaining > .milliseconds(1) else {
            finish(.errored(TransferError(
                kind: .timeout,
                message: "timed out (timeout \(scenario.settings.timeout.planNotation)) after \(chain.count) hop(s), before \(request.url)")))
            return
        }
        chain.append(request.url)
        let wire = StrategyRules.wirePlan(url: request.url, strategy: strategy, ip: ip, tls: tlsIdentity)
        var hopRequest = request
        if !cookies.cookies.isEmpty, let cookieHeader = cookies.cookieHeader(for: CookieURL(request.url), now: Date()) {
            hopRequest.headers.append(Header(name: "Cookie", value: cookieHeader))
        }
        let spec = TransferSpecs.request(hopRequest, scenario: scenario, wire: wire, timeout: remaining)
        engine.submit(spec) { [self] outcome in
            handle(outcome, request: request, wire: wire, resolveTime: resolveTime, engine: engine)
        }
    }

    private func handle(
        _ outcome: TransferOutcome, request: HopRequest, wire: WirePlan, resolveTime: Double?, engine: TransferEngine
    ) {
        var hop = HopEvidence.from(wire: wire, method: request.method, outcome: outcome)
        if let resolveTime, wire.pinnedIP != nil { hop.timings.resolve = resolveTime }
        hops.append(hop)

        switch outcome.result {
        case .failure(let failure):
            let error = TransferErrors.describe(failure, wire: wire, timeout: scenario.settings.timeout)
            if failure.kind == .tls, wire.strategy == .trustOverride, let ip = wire.pinnedIP {
                probeWithSNI(after: error, verification: outcome.evidence.verification, ip: ip, wire: wire, engine: engine)
            } else {
                var error = error
                if let verification = outcome.evidence.verification {
                    error.diagnosis = TLSDiagnosis.general(host: wire.originalURL.host, failure: verification)
                }
                finish(.errored(error))
            }
        case .success(let response):
            if let mismatch = TransferErrors.pinMismatch(wire: wire, evidence: outcome.evidence) {
                finish(.errored(mismatch))
                return
            }
            let setCookies = response.values(of: "Set-Cookie")
            if !setCookies.isEmpty {
                cookies.store(setCookieHeaders: setCookies, requestURL: CookieURL(request.url), now: Date())
            }
            let step = RedirectPolicy.next(
                status: response.status, location: response.values(of: "Location").first, request: request,
                chain: chain, followRedirects: scenario.settings.followRedirects,
                maxRedirects: scenario.settings.maxRedirects)
            switch step {
            case .final:
                if response.bodyTruncated {
                    notes.append(
                        "body: \(response.bodyLength) bytes; only the first \(response.body.count) kept for contains/matches/json (max_body), all of it hashed")
                }
                let observed = ObservedResponse(
                    response: response, evidence: outcome.evidence, totalTime: elapsed, redirects: chain.count - 1,
                    finalURL: request.url.description)
                let problems = ExpectationChecker.problems(for: scenario.expect, observed: observed, now: Date())
                finish(problems.isEmpty ? .passed : .failed(problems))
            case .error(let error):
                finish(.errored(error))
            case .follow(let next):
                follow(next, from: wire, engine: engine)
            }
        }
    }

    /// The next hop: the same pin when the host stays, the domain map again when it changes; the
    /// strategy rule applied to the hop's scheme.
    private func follow(_ next: HopRequest, from previous: WirePlan, engine: TransferEngine) {
        let strategy = Self.hopStrategy(requested: planned.strategy, scheme: next.url.scheme)
        if strategy != previous.strategy {
            notes.append("hop \(chain.count + 1) (\(next.url.scheme.rawValue)) uses \(strategy.rawValue) instead of \(previous.strategy.rawValue)")
        }
        guard StrategyRules.pins(strategy) else {
            send(next, strategy: strategy, ip: nil, resolveTime: nil, on: engine)
            return
        }
        if next.url.host == previous.originalURL.host, let ip = previous.pinnedIP {
            send(next, strategy: strategy, ip: ip, resolveTime: nil, on: engine)
            return
        }
        resolve(next.url.host) { [self] answer in
            switch answer {
            case .failure(let error):
                finish(.errored(TransferError(
                    kind: .resolve, message: "redirect to \(next.url): \(error.message)", diagnosis: error.diagnosis)))
            case .success(let resolution):
                guard let ip = resolution.ordered(for: scenario.ipVersion).first else {
                    finish(.errored(TransferError(
                        kind: .resolve, message: "redirect to \(next.url): \(resolution.source) has no usable address")))
                    return
                }
                notes += resolution.notes
                ipSource += "; hop \(chain.count + 1): \(resolution.source)"
                send(next, strategy: strategy, ip: ip, resolveTime: resolution.lookupTime, on: engine)
            }
        }
    }

    /// A hop keeps the result's strategy when it can carry the hop's scheme; otherwise the
    /// `auto` rule decides for that hop (an https→http redirect under trust override goes
    /// header-only).
    static func hopStrategy(requested: StrategyKind, scheme: PlanURL.Scheme) -> StrategyKind {
        requested.canCarry(scheme) ? requested.concrete(for: scheme) : StrategyKind.auto.concrete(for: scheme)
    }

    /// One extra handshake, with SNI, to tell "needs SNI" from "wrong certificate".
    private func probeWithSNI(
        after error: TransferError, verification: VerificationFailure?, ip: IPAddress, wire: WirePlan,
        engine: TransferEngine
    ) {
        let probeWire = StrategyRules.wirePlan(url: wire.originalURL, strategy: .sniResolve, ip: ip, tls: tlsIdentity)
        let spec = TransferSpecs.sniProbe(scenario: scenario, wire: probeWire)
        engine.submit(spec) { [self] probeOutcome in
            let probe: TLSDiagnosis.SNIProbe
            switch probeOutcome.result {
            case .success:
                probe = .verified(probeOutcome.evidence.certificate)
            case .failure(let failure):
                probe = .failed(probeOutcome.evidence.verification, message: failure.message)
            }
            var error = error
            error.diagnosis = TLSDiagnosis.trustOverride(
                host: wire.originalURL.host, endpoint: "\(ip.urlHost):\(wire.originalURL.port)",
                withoutSNI: verification, probe: probe)
            finish(.errored(error))
        }
    }

    private var elapsed: Double {
        Double(DispatchTime.now().uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1e9
    }

    private func finish(_ outcome: Outcome) {
        var evidence = Evidence(
            strategy: planned.strategy, ipSource: ipSource, insecure: scenario.settings.insecure,
            hops: hops, notes: notes)
        evidence.resolutionFallbackFrom = planned.resolution?.fallbackFrom
        let jar = cookies.cookies
        if !jar.isEmpty {
            evidence.notes.append("cookies kept: " + jar.map { "\($0.name) (\($0.domain)\($0.path))" }.joined(separator: ", "))
        }
        completion(ScenarioResult(
            scenario: scenario.name, strategy: planned.strategy, ip: planned.ip?.text,
            tags: scenario.tags, outcome: outcome, evidence: evidence, duration: elapsed))
    }
}
