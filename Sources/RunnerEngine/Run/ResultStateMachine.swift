import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// The life of one planned result as a value: events in, actions out, no I/O. It carries the
/// request through its hops (each redirect re-resolved and re-pinned, cookies kept between
/// them, every hop within what is left of the scenario's `timeout`), the SNI probe that explains
/// a trust-override failure, the retries a failure earns, and an interruption, to a verdict.
/// `ResultJob` performs its actions; the tests drive it with made-up outcomes and times.
///
/// Times are readings of any monotonic clock (the caller's), as durations since its fixed point; `date` is the wall clock, for
/// cookie expiry and certificate dates.
struct ResultStateMachine {
    /// What the driver does next; each one is answered by exactly one event.
    enum Action {
        /// Submit this transfer, then call `transferFinished`.
        case send(TransferSpec)
        /// Look `host` up through the scenario's domain map or its resolver, then call `resolved`.
        case resolve(host: String, source: AddressSource)
        /// Submit this handshake-only probe, then call `probeFinished`.
        case probe(TransferSpec)
        /// The result is decided; no event follows.
        case finish(ScenarioResult)
        /// Nothing to do (an event after the verdict, which a correct driver never delivers).
        case wait
    }

    private enum State {
        case idle
        /// The request (as the plan or a redirect made it), its wire plan, and the headers sent
        /// (the session's cookies added).
        case sending(HopRequest, WirePlan, headers: [Header])
        case resolving(HopRequest, StrategyKind)
        /// The trust-override handshake failed; a probe with SNI tells why.
        case probing(TransferError, verification: VerificationFailure?, ip: IPAddress, wire: WirePlan)
        /// A handshake under the scenario's `tls:` limits failed; a probe without them tells what
        /// the server offers.
        case probingLimits(TransferError, wire: WirePlan)
        case finished
    }

    let planned: PlannedResult
    /// Extra attempts a failure or an error may have (`retries`).
    private let retries: Int
    private var state = State.idle
    private var interrupted = false
    private var earlierAttempts: [Attempt] = []

    // One attempt's record, started afresh by `begin`.
    private var attemptStartedAt = Duration.zero
    private var hops: [HopEvidence] = []
    private var chain: [PlanURL] = []
    private var cookies = CookieJar()
    private var notes: [String] = []
    /// Whether the final response's chain matched the pins (`expect.certificate.pins`).
    private var pinMatch: Bool?
    /// A gRPC call's answer, read from the final response (`request.grpc`).
    private var grpcAnswer: GRPCAnswer?
    private var ipSource = ""
    /// What the scenario's resolver answered for each host it was asked, in hop order.
    private var dnsLookups: [DNSLookupEvidence] = []
    /// The lookup time of the hop being sent, when a lookup was made for it.
    private var hopResolveTime: Duration?
    /// What the attempt captured (`capture:`) once its final response passed.
    private var captured: CaptureEvaluation.Outcome?
    /// The latest wall-clock time an event brought (a retry's first hop sends cookies by it).
    private var lastDate = Date(timeIntervalSince1970: 0)
    private var passed = false

    /// The run's secrets: masked in what the verdict quotes before it is cut (nil: none).
    private let redactor: Redactor?
    /// Whether each hop's response body is hashed: when an output of the run shows the digest
    /// (`RunOptions.digestsBodies`) or the scenario expects one (`body: {sha256: …}`).
    private let digestsBodies: Bool
    /// The rules each app of the scenario applied to the final hop (`app:`), and their warnings.
    private var appPolicies: [AppPolicyEvidence] = []
    private var appWarnings: [AppWarning] = []
    /// `--strict`: an app's warnings fail the result.
    private let strictAppPolicy: Bool

    init(planned: PlannedResult, retries: Int, redactor: Redactor? = nil, digestsBodies: Bool = true, strictAppPolicy: Bool = false) {
        self.planned = planned
        self.retries = retries
        self.redactor = redactor
        self.strictAppPolicy = strictAppPolicy
        self.digestsBodies = digestsBodies || planned.scenario.expect.body.contains {
            if case .sha256 = $0 { return true } else { return false }
        }
    }

    private var scenario: Scenario { planned.scenario }
    /// What every hop of the scenario trusts and offers (the strategy adds a verify name).
    private var connectionTLS: ConnectionTLS {
        ConnectionTLS(caFile: scenario.settings.caFile, insecure: scenario.settings.insecure, client: scenario.settings.tls)
    }

    /// The first hop (or the verdict, when the host did not resolve).
    mutating func start(now: Duration, date: Date) -> Action {
        lastDate = date
        return begin(now: now)
    }

    /// Its `secret: true` captures, for the run's redactor.
    var capturedSecrets: [SecretValue] {
        guard let captured else { return [] }
        return captured.values.filter(\.value.secret).map { SecretValue(name: $0.key, value: $0.value.text) }
    }

    /// For the flow steps after this result: its lane, captures and cookies; nil unless it passed.
    func laneForDependents() -> FlowLane? {
        guard passed else { return nil }
        var captures = planned.lane?.captures ?? [:]
        if let values = captured?.values, !values.isEmpty {
            // A flow's first step: its own captures are the lane's, shared rather than copied.
            if captures.isEmpty { captures = values } else { for (name, value) in values { captures[name] = value } }
        }
        return FlowLane(
            steps: [ResultStep(scenario: scenario.name, strategy: planned.strategy, ip: planned.ip?.text)]
                + (planned.lane?.steps ?? []),
            strategy: planned.strategy, ip: planned.ip, host: scenario.request.url.host, captures: captures,
            cookies: cookies)
    }

    /// The run was interrupted: no further hop or retry starts, and an error becomes "skipped"
    /// (the transfer was aborted by the interruption, not failed by the service).
    mutating func interrupt() {
        interrupted = true
    }

    /// The hop's transfer ended: its evidence, then the verdict, a probe or the next hop.
    mutating func transferFinished(_ outcome: consuming TransferOutcome, now: Duration, date: Date) -> Action {
        switch takeState() {
        case .sending(let request, let wire, let headers):
            return sent(request, wire: wire, headers: headers, outcome: outcome, now: now, date: date)
        case let other:
            state = other
            return unexpected("a transfer", now: now)
        }
    }

    /// The state, moved out (`.idle` is left in its place): the hop being sent is not copied
    /// on each event; every way on from it sets the next state.
    private mutating func takeState() -> State {
        var taken = State.idle
        swap(&taken, &state)
        return taken
    }

    private mutating func sent(
        _ request: HopRequest, wire: WirePlan, headers: consuming [Header], outcome: consuming TransferOutcome,
        now: Duration, date: Date
    ) -> Action {
        lastDate = date
        hops.append(HopEvidence(wire: wire, request: request, headers: headers, outcome: outcome))
        if let hopResolveTime, wire.pinnedIP != nil { hops[hops.count - 1].timings.resolve = hopResolveTime }

        let response: TransferResponse
        switch outcome.result {
        case .failure(let failure):
            let error = TransferErrors.describe(failure, wire: wire, timeout: scenario.settings.timeout)
            if failure.kind == .tls, !scenario.settings.tls.isDefault, outcome.evidence.verification == nil, !interrupted {
                state = .probingLimits(error, wire: wire)
                return .probe(TransferSpecs.limitsProbe(scenario: scenario, wire: wire))
            }
            if failure.kind == .tls, wire.strategy == .trustOverride, let ip = wire.pinnedIP, !interrupted {
                state = .probing(error, verification: outcome.evidence.verification, ip: ip, wire: wire)
                let probeWire = StrategyRules.wirePlan(
                    url: wire.originalURL, strategy: .sniResolve, ip: ip, tls: connectionTLS, http: scenario.settings.http)
                return .probe(TransferSpecs.sniProbe(scenario: scenario, wire: probeWire))
            }
            var described = error
            if let verification = outcome.evidence.verification {
                described.diagnosis = TLSDiagnosis.general(host: wire.originalURL.host, failure: verification)
            }
            return conclude(.errored(described), now: now)
        case .success(let success):
            response = success
        }
        if let mismatch = TransferErrors.pinMismatch(wire: wire, evidence: outcome.evidence) {
            return conclude(.errored(mismatch), now: now)
        }
        let setCookies = response.values(of: "Set-Cookie")
        if !setCookies.isEmpty {
            cookies.store(setCookieHeaders: setCookies, requestURL: CookieURL(request.url), now: date)
        }
        let step = RedirectPolicy.next(
            status: response.status, location: response.firstValue(of: "Location"), request: request,
            chain: chain, followRedirects: scenario.settings.followRedirects,
            maxRedirects: scenario.settings.maxRedirects)
        switch step {
        case .final:
            if response.bodyTruncated {
                notes.append(
                    "body: \(response.bodyLength) bytes; only the first \(response.body.count) kept for contains/matches/json (max_body), all of it hashed")
            }
            let observed = ObservedResponse(
                response: response, evidence: outcome.evidence, totalTime: now - attemptStartedAt,
                redirects: chain.count - 1, finalURL: request.url.description)
            var problems = ExpectationChecker.problems(
                for: scenario.expect, observed: observed, now: date, profile: scenario.settings.tls.profile,
                redactor: redactor) + appPolicyProblems(wire: wire, tls: observed.tls, date: date)
            if let call = scenario.request.grpc, let expectation = scenario.expect.grpc {
                let answer = GRPCVerdict.answer(to: call, observed: observed)
                grpcAnswer = answer
                // The call's own verdict first: an answer that is no gRPC says more than its HTTP status.
                problems = GRPCVerdict.problems(expectation, answer: answer, observed: observed) + problems
            }
            if let pins = scenario.expect.certificate?.pins {
                pinMatch = ExpectationChecker.pinProblems(pins, observed: observed).isEmpty
            }
            guard problems.isEmpty else { return conclude(.failed(problems), now: now) }
            guard !scenario.captures.isEmpty else { return conclude(.passed, now: now) }
            let taken = CaptureEvaluation.evaluate(scenario.captures, response: response, redactor: redactor)
            captured = taken
            return conclude(taken.problems.isEmpty ? .passed : .failed(taken.problems), now: now)
        case .error(let error):
            return conclude(.errored(error), now: now)
        case .follow(let next):
            return follow(next, from: wire, now: now, date: date)
        }
    }

    /// The scenario's apps (`app:`) judging the final hop: their rules kept for the evidence,
    /// what they refuse as problems, their warnings (problems too under `--strict`).
    private mutating func appPolicyProblems(wire: WirePlan, tls: TLSSession?, date: Date) -> [Problem] {
        guard !scenario.apps.isEmpty else { return [] }
        var policies = AppPolicyVerdict.policies(
            apps: scenario.apps, url: wire.originalURL, strategy: wire.strategy, ip: wire.pinnedIP?.text, now: date)
        let judged = AppPolicyVerdict.judge(
            &policies, apps: scenario.apps, url: wire.originalURL, strategy: wire.strategy, tls: tls, now: date)
        appPolicies = policies
        appWarnings = judged.warnings
        guard strictAppPolicy else { return judged.problems }
        return judged.problems + judged.warnings.map { warning in
            Problem(
                subject: "app \(warning.app) \(warning.kind.rawValue)", expected: "no warning (--strict)", actual: warning.message,
                kind: .appPolicy)
        }
    }

    /// The answer for the host a redirect leads to.
    mutating func resolved(_ answer: Result<Resolution, TransferError>, now: Duration, date: Date) -> Action {
        guard case .resolving(let next, let strategy) = state else { return unexpected("a lookup", now: now) }
        lastDate = date
        switch answer {
        case .failure(let error):
            return conclude(.errored(TransferError(
                kind: .resolve, message: "redirect to \(next.url): \(error.message)", diagnosis: error.diagnosis)), now: now)
        case .success(let resolution):
            guard let ip = resolution.ordered(for: scenario.ipVersion).first else {
                return conclude(.errored(TransferError(
                    kind: .resolve, message: "redirect to \(next.url): \(resolution.source) has no usable address")), now: now)
            }
            notes += resolution.notes
            if let dns = resolution.dns { dnsLookups.append(dns) }
            ipSource += "; hop \(chain.count + 1): \(resolution.source)"
            return send(next, strategy: strategy, ip: ip, resolveTime: resolution.lookupTime, now: now, date: date)
        }
    }

    /// A probe's outcome: the trust-override failure (the SNI probe) or the limits' failure (the
    /// probe without them), diagnosed.
    mutating func probeFinished(_ outcome: TransferOutcome, now: Duration) -> Action {
        if case .probingLimits(var error, let wire) = state {
            let endpoint = outcome.evidence.connectedIP.map { ip in
                "\(ip.contains(":") ? "[\(ip)]" : ip):\(outcome.evidence.connectedPort ?? wire.originalURL.port)"
            } ?? wire.pinnedIP.map { "\($0.urlHost):\(wire.originalURL.port)" } ?? wire.originalURL.authority
            switch outcome.result {
            case .success:
                error.diagnosis = TLSDiagnosis.limits(
                    endpoint: endpoint, offered: outcome.evidence.tls, client: scenario.settings.tls)
            case .failure(let failure):
                error.diagnosis = "without the scenario's tls settings the handshake with \(endpoint) fails too (\(failure.message)): they are not the cause"
            }
            return conclude(.errored(error), now: now)
        }
        guard case .probing(var error, let verification, let ip, let wire) = state else { return unexpected("a probe", now: now) }
        let probe: TLSDiagnosis.SNIProbe
        switch outcome.result {
        case .success:
            probe = .verified(outcome.evidence.certificate)
        case .failure(let failure):
            probe = .failed(outcome.evidence.verification, message: failure.message)
        }
        error.diagnosis = TLSDiagnosis.trustOverride(
            host: wire.originalURL.host, endpoint: "\(ip.urlHost):\(wire.originalURL.port)",
            withoutSNI: verification, probe: probe)
        return conclude(.errored(error), now: now)
    }

    // MARK: Steps

    /// A new attempt: the evidence starts empty, the request from the plan.
    private mutating func begin(now: Duration) -> Action {
        attemptStartedAt = now
        hops = []
        chain = []
        captured = nil
        cookies = planned.lane?.cookies ?? CookieJar()
        notes = planned.resolution?.notes ?? []
        pinMatch = nil
        appPolicies = []
        appWarnings = []
        dnsLookups = planned.resolution?.dns.map { [$0] } ?? []
        ipSource = ResultExpansion.addressSource(of: planned.strategy, in: scenario) == nil
            ? "system resolver (libcurl, not pinned)" : planned.resolution?.source ?? "not resolved"
        if let resolveError = planned.resolveError {
            return conclude(.errored(resolveError), now: now)
        }
        var request = HopRequest(
            method: scenario.request.method, url: scenario.request.url, headers: scenario.request.headers,
            body: scenario.request.body)
        if let lane = planned.lane {
            switch CaptureInsertion.fill(request, uses: scenario.captureUses, captures: lane.captures) {
            case .request(let filled): request = filled
            case .problem(let problem): return conclude(.failed([problem]), now: now)
            }
        }
        // A flow step's first hop carries the session's cookies; any other starts with none.
        return send(
            request, strategy: planned.strategy, ip: planned.ip, resolveTime: planned.resolution?.lookupTime, now: now,
            date: planned.lane == nil ? nil : lastDate)
    }

    /// One hop within what is left of the scenario's `timeout` (it covers every hop). `date` is
    /// nil on an attempt's first hop, when the cookie jar is still empty.
    private mutating func send(
        _ request: HopRequest, strategy: StrategyKind, ip: IPAddress?, resolveTime: Duration?, now: Duration, date: Date?
    ) -> Action {
        if interrupted { return conclude(.skipped(reason: "interrupted"), now: now) }
        let remaining = scenario.settings.timeout - (now - attemptStartedAt)
        guard remaining > .milliseconds(1) else {
            return conclude(.errored(TransferError(
                kind: .timeout,
                message: "timed out (timeout \(scenario.settings.timeout.planNotation)) after \(chain.count) hop(s), before \(request.url)")),
                now: now)
        }
        chain.append(request.url)
        let wire = StrategyRules.wirePlan(
            url: request.url, strategy: strategy, ip: ip, tls: connectionTLS, http: scenario.settings.http)
        var hopRequest = request
        if let date, !cookies.cookies.isEmpty,
            let cookieHeader = cookies.cookieHeader(for: CookieURL(request.url), now: date)
        {
            hopRequest.headers.append(Header(name: "Cookie", value: cookieHeader))
        }
        hopResolveTime = resolveTime
        // The transfer's spec made first, from the wire plan borrowed; the state then takes it
        // (its last use: moved, not copied).
        let spec = TransferSpecs.request(hopRequest, scenario: scenario, wire: wire, timeout: remaining, digestsBody: digestsBodies)
        state = .sending(request, wire, headers: hopRequest.headers)
        return .send(spec)
    }

    /// The next hop: the same pin when the host stays, the domain map again when it changes; the
    /// strategy rule applied to the hop's scheme.
    private mutating func follow(_ next: HopRequest, from previous: WirePlan, now: Duration, date: Date) -> Action {
        let strategy = Self.hopStrategy(requested: planned.strategy, scheme: next.url.scheme)
        if strategy != previous.strategy {
            notes.append("hop \(chain.count + 1) (\(next.url.scheme.rawValue)) uses \(strategy.rawValue) instead of \(previous.strategy.rawValue)")
        }
        guard let source = ResultExpansion.addressSource(of: strategy, in: scenario) else {
            return send(next, strategy: strategy, ip: nil, resolveTime: nil, now: now, date: date)
        }
        if next.url.host == previous.originalURL.host, let ip = previous.pinnedIP {
            return send(next, strategy: strategy, ip: ip, resolveTime: nil, now: now, date: date)
        }
        if interrupted { return conclude(.skipped(reason: "interrupted"), now: now) }
        state = .resolving(next, strategy)
        return .resolve(host: next.url.host, source: source)
    }

    /// A hop keeps the result's strategy when it can carry the hop's scheme; otherwise the
    /// `auto` rule decides for that hop (an https→http redirect under trust override goes
    /// header-only).
    static func hopStrategy(requested: StrategyKind, scheme: PlanURL.Scheme) -> StrategyKind {
        requested.canCarry(scheme) ? requested.concrete(for: scheme) : StrategyKind.auto.concrete(for: scheme)
    }

    /// An attempt's verdict: another attempt when a failure may be retried, else the result.
    private mutating func conclude(_ verdict: Outcome, now: Duration) -> Action {
        var outcome = DNSVerdict.apply(to: verdict, lookups: dnsLookups)
        if interrupted, case .errored = outcome {
            outcome = .skipped(reason: "interrupted")
        }
        if !interrupted, Self.mayRetry(outcome, of: planned), earlierAttempts.count < retries {
            earlierAttempts.append(Attempt(outcome: outcome, duration: now - attemptStartedAt))
            return begin(now: now)
        }
        state = .finished
        // After the retries: a population sent to the wrong edge is sent there again on a retry.
        outcome = SchedulingVerdict.apply(to: outcome, misses: planned.schedulingMisses)
        if case .passed = outcome { passed = true }
        var evidence = Evidence(
            strategy: planned.strategy, ipSource: ipSource, insecure: scenario.settings.insecure, hops: hops, notes: notes)
        evidence.resolutionFallbackFrom = planned.resolution?.fallbackFrom
        evidence.clients = planned.clients.map(\.identity)
        if let retained = planned.retained {
            evidence.retained = retained
            // Those who still hold the address are who a failure here reaches.
            switch outcome {
            case .errored(var error):
                error.diagnosis = [error.diagnosis, retained.consequence].compactMap { $0 }.joined(separator: "; ")
                outcome = .errored(error)
            case .failed:
                evidence.notes.append(retained.consequence)
            case .passed, .skipped:
                break
            }
        }
        if let pick = planned.pick {
            evidence.pick = pick
            outcome = PickVerdict.apply(to: outcome, pick: pick, address: planned.ip, retained: planned.retained != nil, notes: &evidence.notes)
        }
        evidence.pinMatch = pinMatch
        evidence.grpc = grpcAnswer
        if appPolicies.isEmpty, !scenario.apps.isEmpty {
            // No final response was judged: the rules that would have applied, for the evidence.
            appPolicies = AppPolicyVerdict.policies(
                apps: scenario.apps, url: scenario.request.url, strategy: planned.strategy, ip: planned.ip?.text, now: lastDate)
        }
        evidence.appPolicies = appPolicies
        evidence.appWarnings = appWarnings
        evidence.connection = ConnectionSettings(
            http: scenario.settings.http, timeout: scenario.settings.timeout, connectTimeout: scenario.settings.connectTimeout)
        evidence.captured = captured?.records ?? []
        evidence.dns = dnsLookups
        // Only a result that sent something used addresses from somewhere; one that did not resolve has its error.
        if scenario.expect.dns != nil, !hops.isEmpty, !dnsLookups.contains(where: { $0.within != nil }) {
            evidence.dnsNotChecked = "expect.dns not checked: the addresses came from \(ipSource), not a resolver"
        }
        // The notes are written into one string each: a flow step makes both for every result.
        if let lane = planned.lane, !scenario.captureUses.isEmpty {
            var note = "captures used: "
            note.reserveCapacity(64)
            var listed = false
            for (index, use) in scenario.captureUses.enumerated()
            where !scenario.captureUses[..<index].contains(where: { $0.name == use.name }) {
                if listed { note += ", " }
                listed = true
                note += use.name
                if lane.captures[use.name]?.secret == true { note += " (secret)" }
            }
            evidence.notes.append(note)
        }
        let jar = cookies.cookies
        if !jar.isEmpty {
            var note = "cookies kept: "
            note.reserveCapacity(64)
            for (index, cookie) in jar.enumerated() {
                if index > 0 { note += ", " }
                note += cookie.name
                note += " ("
                note += cookie.domain
                note += cookie.path
                note += ")"
            }
            evidence.notes.append(note)
        }
        // Made by one initializer and handed on: no copy of the result built aside.
        return .finish(ScenarioResult(
            scenario: scenario.name, strategy: planned.strategy, ip: planned.ip?.text, tags: scenario.tags,
            outcome: outcome, evidence: evidence, duration: now - attemptStartedAt, earlierAttempts: earlierAttempts,
            after: planned.lane?.steps ?? []))
    }

    /// Failures and transfer errors are retried. A result whose domain map gave no IP is not:
    /// the lookup is shared by all the scenario's results, and a retry would replay its answer.
    static func mayRetry(_ outcome: Outcome, of planned: PlannedResult) -> Bool {
        switch outcome {
        case .failed: true
        case .errored: planned.resolveError == nil
        case .passed, .skipped: false
        }
    }

    /// An event the state does not wait for: a driver bug. Before the verdict it becomes the
    /// result's error (the run goes on, the result is reported once); after it, it is ignored.
    private mutating func unexpected(_ event: String, now: Duration) -> Action {
        if case .finished = state { return .wait }
        return conclude(.errored(TransferError(kind: .io, message: "internal error: \(event) finished while none was under way")), now: now)
    }
}
