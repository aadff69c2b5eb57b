import Foundation
import RunnerPlan

/// One cycle's ranking connects, shared by every plan, map and population whose lookup ends in
/// the cycle, on whichever thread measures: an (address, port) is connected to once, by the
/// first lookup that needs it; a lookup that needs one under way waits for its outcome rather
/// than connecting again. A new cycle (a run, a `serve` cycle) makes a new one.
public final class ConnectProbeCycle: @unchecked Sendable {
    /// Guards everything below.
    private let condition = NSCondition()
    private var cache = ConnectProbeCache()
    private var underWay: Set<ConnectTarget> = []
    /// Makes the connects no lookup of the cycle has made yet, into the cache it is given:
    /// `ConnectProbe`'s sockets in a run, a script in tests.
    private let connect: @Sendable (_ probe: ConnectProbe, _ targets: [ConnectTarget], _ into: inout ConnectProbeCache) -> Void

    public convenience init() {
        self.init { probe, targets, cache in _ = probe.measure(targets, cache: &cache) }
    }

    init(connect: @escaping @Sendable (_ probe: ConnectProbe, _ targets: [ConnectTarget], _ into: inout ConnectProbeCache) -> Void) {
        self.connect = connect
    }

    /// Sockets this cycle opened for ranking: at most one per distinct (address, port).
    public var connectsMade: Int {
        condition.lock()
        defer { condition.unlock() }
        return cache.connectsMade
    }

    /// Each of `addresses`' outcome on `port`: connected to now by `probe` when no lookup of the
    /// cycle has, else the outcome that lookup got (waiting for it while under way). Blocks for
    /// up to about the probe's timeout per `maximumInFlight` new targets, plus another
    /// lookup's when it holds some of them.
    public func measure(_ addresses: [IPAddress], port: Int, probe: ConnectProbe) -> [IPAddress: ConnectOutcome] {
        let targets = addresses.map { ConnectTarget(address: $0, port: port) }
        condition.lock()
        var mine: [ConnectTarget] = []
        for target in targets where cache.outcome(for: target) == nil && !underWay.contains(target) {
            underWay.insert(target)
            mine.append(target)
        }
        condition.unlock()

        var measured = ConnectProbeCache()
        if !mine.isEmpty { connect(probe, mine, &measured) }

        condition.lock()
        defer { condition.unlock() }
        cache.merge(measured)
        underWay.subtract(mine)
        condition.broadcast()
        // Targets another lookup is connecting to: each ends within that lookup's probe timeout.
        while targets.contains(where: { cache.outcome(for: $0) == nil && underWay.contains($0) }) { condition.wait() }
        var outcomes: [IPAddress: ConnectOutcome] = [:]
        for target in targets { outcomes[target.address] = cache.outcome(for: target) }
        return outcomes
    }
}
