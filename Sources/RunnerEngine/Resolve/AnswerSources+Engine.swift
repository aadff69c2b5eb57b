import RunnerPlan
import RunnerTransport
import RunnerVocabulary

extension AnswerSources {
    /// A run's: HTTPDNS queries as transfers on `engine`, concurrent with everything else; a
    /// resolver and the ranking connects each on a thread of its own (`submitBlocking`), the
    /// connects shared with every plan of the cycle through `probes`.
    init(engine: TransferEngine, probes: ConnectProbeCycle, clock: MonotonicClock) {
        self.init(
            service: { lookup, completion in lookup.run(on: engine, completion: completion) },
            resolver: { host, resolver, ipVersion, timeout, completion in
                Self.ask(
                    resolver, host: host, ipVersion: ipVersion, timeout: timeout, on: engine, clock: clock, completion: completion)
            },
            connects: { addresses, port, probe, completion in
                // Waves of the probe's connects, and as long again for connects another lookup holds.
                let waves = (addresses.count + probe.maximumInFlight - 1) / probe.maximumInFlight
                let bound = probe.timeout * (2 * waves) + .seconds(1)
                engine.submitBlocking(timeout: bound, { probes.measure(addresses, port: port, probe: probe) }, completion: completion)
            })
    }

    /// The scenario's resolver, on a thread of its own: getaddrinfo cannot be interrupted and
    /// either may wait seconds on a slow DNS server, which must hold up no transfer. Bounded by
    /// `timeout`, as curl bounds name resolution by its connect timeout.
    private static func ask(
        _ resolver: ResolverChoice, host: String, ipVersion: IPVersionPreference, timeout: Duration, on engine: TransferEngine,
        clock: MonotonicClock, completion: @escaping (Answer) -> Void
    ) {
        let name = resolver == .system ? "system resolver" : "resolver \(resolver)"
        // A DNS server's lookup keeps its own time and says which question ran out; the margin
        // lets it.
        let bound = resolver == .system ? timeout : timeout + .milliseconds(500)
        engine.submitBlocking(timeout: bound, {
            ResolverLookup.resolve(host: host, resolver: resolver, ipVersion: ipVersion, timeout: timeout, clock: clock)
        }) { result in
            switch result {
            case .success(let answer):
                completion(answer)
            case .failure(let failure) where failure.kind == .timeout:
                completion(.failure(TransferError(
                    kind: .resolve, message: "\(name): no answer for '\(host)' within \(timeout.planNotation)")))
            case .failure(let failure):
                completion(.failure(TransferError(kind: .resolve, message: "\(name): \(failure.message)")))
            }
        }
    }
}
