import RunnerResults
import RunnerVocabulary

extension ResultSamples {
    /// The samples of `result`, its labels redacted; the probe values as blackbox_exporter
    /// computes its own from the final response and every request made. Its TLS facts come from
    /// `sessions` when an earlier result had the same.
    init(_ result: borrowing ScenarioResult, at position: ResultPosition, redactor: Redactor, sessions: inout TLSSample.Cache) {
        self.position = position
        scenario = redactor.redact(result.scenario)
        strategy = redactor.redact(result.strategy.rawValue)
        ip = result.ip.map(redactor.redact) ?? ""
        if !result.after.isEmpty { after = redactor.redact(result.after.map(\.description).joined(separator: " after ")) }
        if !result.evidence.clients.isEmpty { clients = Self.clients(of: result, redactor: redactor) }
        retained = result.evidence.retained != nil
        switch result.outcome {
        case .passed: status = .pass
        case .failed: status = .fail
        case .errored: status = .error
        case .skipped:
            status = .skipped
            probe = nil
            return
        }
        dns = result.evidence.dns.map {
            DNSSample(
                resolver: $0.resolver, host: redactor.redact($0.host), foreign: $0.within == nil ? nil : $0.foreign.count,
                duration: $0.duration.inSeconds)
        }
        let hops = result.evidence.hops
        let final = hops.last
        probe = Probe(
            duration: result.duration.inSeconds, phases: Self.phases(of: hops),
            httpVersion: final?.httpVersion.map(Self.versionNumber) ?? 0, dnsLookup: hops.first?.timings.resolve?.inSeconds ?? 0,
            statusCode: final?.status ?? 0, redirects: max(0, hops.count - 1),
            contentLength: final?.status == nil ? 0 : final?.contentLength ?? -1, bodyLength: final?.bodyLength ?? 0,
            tls: final.flatMap { Self.tlsSample(of: $0, redactor: redactor, sessions: &sessions) },
            success: status == .pass, flaky: result.isFlaky, resolutionFallback: result.evidence.resolutionFallbackFrom != nil,
            ssl: final?.tls != nil && final?.status != nil, pinMatch: result.evidence.pinMatch,
            ipProtocol: result.ip.map { $0.contains(":") ? 6 : 4 } ?? 0)
        if let grpc = result.evidence.grpc { probe?.grpc = GRPCSample(status: grpc.status?.rawValue, serving: grpc.serving) }
    }

    /// The TLS facts of a final hop (nil without a session or a certificate), made once per
    /// distinct session and certificate.
    static func tlsSample(of hop: HopEvidence, redactor: Redactor, sessions: inout TLSSample.Cache) -> TLSSample? {
        let earliest = earliestExpiry(of: hop)
        guard hop.tls != nil || earliest != nil else { return nil }
        let verified = hop.tls.map { $0.chainVerified && !$0.chain.isEmpty } ?? false
        let key = TLSSample.Cache.Key(
            version: hop.tls?.version, cipher: hop.tls?.cipher ?? "", fingerprint: hop.certificate?.sha256Fingerprint,
            verified: verified, earliest: earliest)
        if let known = sessions.samples[key] { return known }
        let made = TLSSample(
            version: hop.tls.map { versionLabel($0.version) }, cipher: hop.tls.flatMap { $0.cipher.isEmpty ? nil : redactor.redact($0.cipher) },
            earliestCertificateExpiry: earliest,
            lastChainExpiry: verified ? hop.tls?.chain.compactMap(\.notAfter).min()?.timeIntervalSince1970 : nil,
            lastChainLeaf: verified ? hop.certificate.flatMap { chainLeaf($0, redactor: redactor) } : nil)
        sessions.samples[key] = made
        return made
    }

    /// The earliest notAfter of the certificates the final hop's server presented (the leaf, and
    /// the chain, verified or not), as blackbox_exporter's `probe_ssl_earliest_cert_expiry`.
    static func earliestExpiry(of hop: HopEvidence?) -> Double? {
        // Once per result: no arrays made for three dates.
        var earliest = hop?.certificate?.notAfter
        for certificate in hop?.tls?.chain ?? [] {
            if let date = certificate.notAfter, earliest.map({ date < $0 }) ?? true { earliest = date }
        }
        return earliest?.timeIntervalSince1970
    }

    /// The leaf's labels of `probe_ssl_last_chain_info`; nil when its serial or fingerprint was not read.
    static func chainLeaf(_ leaf: CertificateSummary, redactor: Redactor) -> ChainLeaf? {
        guard let serial = leaf.serialNumber, let fingerprint = leaf.sha256Fingerprint else { return nil }
        return ChainLeaf(
            fingerprint: fingerprint, subject: redactor.redact(leaf.subject), issuer: redactor.redact(leaf.issuer),
            subjectAlternative: redactor.redact(leaf.subjectAltNames.joined(separator: ",")), serialNumber: serial)
    }

    /// The result's populations, with the misses `expect.edges` found for each.
    static func clients(of result: borrowing ScenarioResult, redactor: Redactor) -> [ClientSample] {
        result.evidence.clients.map { client in
            ClientSample(
                name: redactor.redact(client.name),
                labels: client.labels.map { ClientIdentity.Label(name: $0.name, value: redactor.redact($0.value)) },
                misses: result.schedulingMisses(of: client.name))
        }
    }

    /// Each phase summed over the hops. Timings hold each phase's own duration and the first
    /// byte and total from the hop's start, so processing (connection ready to first byte) and
    /// transfer (first byte to last) are what lies between them; a phase a hop never reached
    /// adds nothing.
    static func phases(of hops: [HopEvidence]) -> Phases {
        var phases = Phases()
        for hop in hops {
            // Seconds, as the exposition writes them.
            let timings = hop.timings
            let resolve = timings.resolve?.inSeconds ?? 0
            let connect = timings.connect?.inSeconds ?? 0
            let tls = timings.tls?.inSeconds ?? 0
            phases.resolve += resolve
            phases.connect += connect
            phases.tls += tls
            if let firstByte = timings.firstByte?.inSeconds {
                phases.processing += max(0, firstByte - (resolve + connect + tls))
                if let total = timings.total?.inSeconds { phases.transfer += max(0, total - firstByte) }
            }
        }
        return phases
    }

    /// `TLS 1.3`, as blackbox_exporter's `probe_tls_version_info` labels a version.
    static func versionLabel(_ version: TLSVersion?) -> StaticString {
        switch version {
        case .v1_0?: "TLS 1.0"
        case .v1_1?: "TLS 1.1"
        case .v1_2?: "TLS 1.2"
        case .v1_3?: "TLS 1.3"
        case nil: "unknown"
        }
    }

    /// `1.1` → 1.1, `2` → 2, as blackbox_exporter reads `HTTP/1.1` and `HTTP/2.0`; 0 for anything else.
    static func versionNumber(_ version: String) -> Double {
        switch version {
        case "1.0": 1
        case "1.1": 1.1
        case "2": 2
        case "3": 3
        default: 0
        }
    }
}
