import RunnerPlan

/// The ranking's own connects, as the SDKs make them: a TCP handshake (no TLS, nothing sent) to
/// each distinct (address, port), within a timeout, at most `maximumInFlight` at once. An (address,
/// port) already in the cycle's `ConnectProbeCache` is not connected to again.
public struct ConnectProbe: Sendable {
    /// How long one connect may take (the SDK's `connectTimeout`).
    public var timeout: Duration
    /// Connects under way at once (Alibaba iOS: 10; Alibaba Android: 1, one after another).
    public var maximumInFlight: Int

    public init(timeout: Duration, maximumInFlight: Int = 10) {
        self.timeout = timeout
        self.maximumInFlight = max(1, maximumInFlight)
    }

    /// The connects a profile's ranking makes to `addresses` on its port, by address.
    public init(ranking: SDKProfile.Ranking, maximumInFlight: Int = 10) {
        self.init(timeout: ranking.connectTimeout, maximumInFlight: maximumInFlight)
    }

    /// Each of `targets`' outcomes: from `cache` when this cycle already connected to it, else
    /// connected to now and recorded there. Returns within about `timeout` per `maximumInFlight`
    /// new targets.
    public func measure(_ targets: [ConnectTarget], cache: inout ConnectProbeCache) -> [ConnectTarget: ConnectOutcome] {
        var seen = Set<ConnectTarget>()
        var waiting = targets.filter { cache.outcome(for: $0) == nil && seen.insert($0).inserted }[...]
        var inFlight: [(target: ConnectTarget, descriptor: Int32, started: ContinuousClock.Instant)] = []
        let clock = ContinuousClock()

        while !waiting.isEmpty || !inFlight.isEmpty {
            while inFlight.count < maximumInFlight, let target = waiting.popFirst() {
                let started = clock.now
                cache.countConnect()
                switch NonBlockingConnect.start(target) {
                case .inProgress(let descriptor): inFlight.append((target, descriptor, started))
                case .connected: cache.record(.connected(started.duration(to: clock.now)), for: target)
                case .failed(let failure): cache.record(.failed(failure), for: target)
                }
            }
            guard let earliest = inFlight.map({ $0.started + timeout }).min() else { continue }
            let ended: Set<Int32>
            switch NonBlockingConnect.ended(inFlight.map(\.descriptor), deadline: earliest) {
            case .success(let descriptors): ended = descriptors
            case .failure(let failure):
                // No way left to tell how these handshakes end: each fails with poll's error.
                for connect in inFlight {
                    _ = NonBlockingConnect.finish(connect.descriptor)
                    cache.record(.failed(failure), for: connect.target)
                }
                inFlight.removeAll()
                continue
            }
            let now = clock.now
            inFlight.removeAll { connect in
                if ended.contains(connect.descriptor) {
                    let outcome: ConnectOutcome = NonBlockingConnect.finish(connect.descriptor).map { .failed($0) }
                        ?? .connected(connect.started.duration(to: now))
                    cache.record(outcome, for: connect.target)
                    return true
                }
                guard now >= connect.started + timeout else { return false }
                cache.record(.failed(NonBlockingConnect.abandon(connect.descriptor, after: timeout)), for: connect.target)
                return true
            }
        }
        var outcomes: [ConnectTarget: ConnectOutcome] = [:]
        for target in targets { outcomes[target] = cache.outcome(for: target) }
        return outcomes
    }

    /// The ranking connects for one answer: each address on `port`, by address, as `SDKPick`
    /// takes them.
    public func measure(_ addresses: [IPAddress], port: Int, cache: inout ConnectProbeCache) -> [IPAddress: ConnectOutcome] {
        let outcomes = measure(addresses.map { ConnectTarget(address: $0, port: port) }, cache: &cache)
        var byAddress: [IPAddress: ConnectOutcome] = [:]
        for (target, outcome) in outcomes { byAddress[target.address] = outcome }
        return byAddress
    }
}
