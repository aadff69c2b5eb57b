import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport

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
            strategy: planned.strategy.rawValue, ipSource: ipSource, insecure: scenario.settings.insecure,
            hops: hops, notes: notes)
        evidence.resolutionFallbackFrom = planned.resolution?.fallbackFrom
        let jar = cookies.cookies
        if !jar.isEmpty {
            evidence.notes.append("cookies kept: " + jar.map { "\($0.name) (\($0.domain)\($0.path))" }.joined(separator: ", "))
        }
        completion(ScenarioResult(
            scenario: scenario.name, strategy: planned.strategy.rawValue, ip: planned.ip?.text,
            tags: scenario.tags, outcome: outcome, evidence: evidence, duration: elapsed))
    }
}

extension CookieURL {
    /// The jar is keyed by the original host, never by the IP a hop connected to.
    init(_ url: PlanURL) {
        let path = url.pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        self.init(secure: url.scheme == .https, host: url.host, path: path.isEmpty ? "/" : path)
    }
}

/// Builds the transfer for a wire plan: the plan's request, carried out the strategy's way.
enum TransferSpecs {
    static func request(_ request: HopRequest, scenario: Scenario, wire: WirePlan, timeout: Duration) -> TransferSpec {
        var headers = request.headers.map { (name: $0.name, value: $0.value) }
        if let host = wire.explicitHostHeader,
            !headers.contains(where: { HeaderName.equal($0.name, "Host") })
        {
            headers.insert((name: "Host", value: host), at: 0)
        }
        let body: TransferSpec.Body? = request.body.map {
            switch $0 {
            case .bytes(let data): .bytes(data)
            case .file(let path): .file(path: path)
            }
        }
        return TransferSpec(
            url: wire.urlSent, method: request.method, headers: headers, body: body,
            connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            httpVersion: httpVersion(scenario.settings.http), timeout: timeout,
            connectTimeout: min(scenario.settings.connectTimeout, timeout), poolKey: wire.poolKey,
            bodyCaptureLimit: scenario.settings.maxBody)
    }

    /// A handshake-only transfer on a fresh connection (its own pool), verification on.
    static func sniProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        TransferSpec(
            url: wire.urlSent, connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            timeout: scenario.settings.connectTimeout, connectTimeout: scenario.settings.connectTimeout,
            poolKey: wire.poolKey.tagged("probe"), connectOnly: true)
    }

    private static func tls(scenario: Scenario, wire: WirePlan) -> TransferSpec.TLSSettings {
        TransferSpec.TLSSettings(
            caFile: scenario.settings.caFile, insecure: scenario.settings.insecure, verifyName: wire.verifyName)
    }

    private static func httpVersion(_ preference: HTTPVersionPreference) -> TransferSpec.HTTPVersion {
        switch preference {
        case .http1_1: .http1_1
        case .http2: .http2
        case .auto: .auto
        }
    }
}

/// Transport failures and invariant breaches, told in domain terms.
enum TransferErrors {
    static func describe(_ failure: TransferFailure, wire: WirePlan, timeout: Duration) -> TransferError {
        let url = wire.originalURL
        let endpoint = wire.pinnedIP.map { "\($0.urlHost):\(url.port)" } ?? url.authority
        let message: String
        switch failure.kind {
        case .resolve: message = "cannot resolve '\(url.host)': \(failure.message)"
        case .connect: message = "cannot connect to \(endpoint): \(failure.message)"
        case .tls: message = "TLS handshake with \(endpoint) (\(sniText(wire))) failed: \(failure.message)"
        case .timeout: message = "timed out (timeout \(timeout.planNotation)) with \(endpoint): \(failure.message)"
        case .http: message = "bad HTTP response from \(endpoint): \(failure.message)"
        case .io: message = "transfer with \(endpoint) failed: \(failure.message)"
        }
        return TransferError(kind: TransferError.Kind(failure.kind), message: message)
    }

    /// The invariant "every transfer connects to exactly the IP the strategy chose", checked.
    static func pinMismatch(wire: WirePlan, evidence: TransferEvidence) -> TransferError? {
        guard let pinned = wire.pinnedIP else { return nil }
        // libcurl reports the canonical text almost always; parse only when the texts differ.
        if evidence.connectedIP == pinned.text { return nil }
        let connected = evidence.connectedIP.flatMap(IPAddress.init)
        guard connected != pinned else { return nil }
        return TransferError(
            kind: .connect,
            message: "connected to \(evidence.connectedIP ?? "an unknown address"), but the strategy pinned \(pinned.text)")
    }

    private static func sniText(_ wire: WirePlan) -> String {
        wire.sni.map { "SNI '\($0)'" } ?? "no SNI"
    }
}

extension TransferError.Kind {
    init(_ kind: TransferFailure.Kind) {
        switch kind {
        case .resolve: self = .resolve
        case .connect: self = .connect
        case .tls: self = .tls
        case .timeout: self = .timeout
        case .http: self = .http
        case .io: self = .io
        }
    }
}

extension HopEvidence {
    static func from(wire: WirePlan, method: String, outcome: TransferOutcome) -> HopEvidence {
        let evidence = outcome.evidence
        var hop = HopEvidence(
            method: method, originalURL: wire.originalURL.description, urlSent: wire.urlSent,
            hostHeader: wire.explicitHostHeader ?? wire.hostHeader, sni: wire.sni, pinnedIP: wire.pinnedIP?.text,
            timings: Timings(
                resolve: evidence.timings.resolve, connect: evidence.timings.connect, tls: evidence.timings.tls,
                firstByte: evidence.timings.firstByte, total: evidence.timings.total))
        hop.connectedIP = evidence.connectedIP
        hop.connectedPort = evidence.connectedPort
        hop.httpVersion = evidence.httpVersion
        hop.newConnection = evidence.newConnections > 0
        hop.certificate = (evidence.certificate ?? evidence.verification?.leaf).map {
            CertificateSummary(subject: $0.subject, issuer: $0.issuer, notAfter: $0.notAfter, subjectAltNames: $0.subjectAltNames)
        }
        if case .success(let response) = outcome.result {
            hop.status = response.status
            hop.bodyLength = response.bodyLength
            hop.bodySHA256 = response.bodySHA256
        }
        return hop
    }
}
