import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport

/// Carries one planned result through its transfers (the request, and a diagnosis probe when
/// trust override fails) to a verdict. Lives on the engine's thread.
final class ResultJob {
    let planned: PlannedResult
    private let ipSource: String
    private let completion: (ScenarioResult) -> Void
    private var startedAt = DispatchTime.now()
    private var hops: [HopEvidence] = []

    init(planned: PlannedResult, completion: @escaping (ScenarioResult) -> Void) {
        self.planned = planned
        self.completion = completion
        if planned.strategy == .system {
            ipSource = "system resolver (libcurl, not pinned)"
        } else {
            ipSource = planned.resolution?.source ?? "not resolved"
        }
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
        let wire = StrategyRules.wirePlan(
            url: scenario.request.url, strategy: planned.strategy, ip: planned.ip, tls: tlsIdentity)
        let spec = TransferSpecs.request(scenario: scenario, wire: wire)
        engine.submit(spec) { [self] outcome in
            handle(outcome, wire: wire, engine: engine)
        }
    }

    private func handle(_ outcome: TransferOutcome, wire: WirePlan, engine: TransferEngine) {
        var hop = HopEvidence.from(wire: wire, method: scenario.request.method, outcome: outcome)
        if let resolution = planned.resolution, wire.pinnedIP != nil {
            hop.timings.resolve = resolution.lookupTime
        }
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
            let observed = ObservedResponse(
                response: response, evidence: outcome.evidence, totalTime: elapsed, redirects: hops.count - 1)
            let problems = ExpectationChecker.problems(for: scenario.expect, observed: observed, now: Date())
            finish(problems.isEmpty ? .passed : .failed(problems))
        }
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
            hops: hops, notes: planned.resolution?.notes ?? [])
        evidence.resolutionFallbackFrom = planned.resolution?.fallbackFrom
        if case .passed = outcome, let last = hops.last, let status = last.status, (300..<400).contains(status),
            scenario.settings.followRedirects
        {
            evidence.notes.append("the final response is a \(status) redirect; this version does not follow redirects yet")
        }
        completion(ScenarioResult(
            scenario: scenario.name, strategy: planned.strategy.rawValue, ip: planned.ip?.text,
            tags: scenario.tags, outcome: outcome, evidence: evidence, duration: elapsed))
    }
}

/// Builds the transfer for a wire plan: the plan's request, carried out the strategy's way.
enum TransferSpecs {
    static func request(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        let request = scenario.request
        var headers = request.headers.map { (name: $0.name, value: $0.value) }
        if let host = wire.explicitHostHeader,
            !headers.contains(where: { $0.name.caseInsensitiveCompare("Host") == .orderedSame })
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
            httpVersion: httpVersion(scenario.settings.http), timeout: scenario.settings.timeout,
            connectTimeout: scenario.settings.connectTimeout, poolKey: wire.poolKey,
            bodyCaptureLimit: scenario.settings.maxBody)
    }

    /// A handshake-only transfer on a fresh connection (its own pool), verification on.
    static func sniProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        TransferSpec(
            url: wire.urlSent, connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            timeout: scenario.settings.connectTimeout, connectTimeout: scenario.settings.connectTimeout,
            poolKey: "probe|" + wire.poolKey, connectOnly: true)
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
