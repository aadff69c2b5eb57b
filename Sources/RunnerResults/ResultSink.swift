/// Where a result sits in the run: its plan (in command-line order), its scenario's place in
/// that plan (counted over all of the plan's scenarios, selected or not, so that a scenario
/// has the same number in every shard), and its slot among the scenario's results
/// (strategies × IPs). Ordering positions gives plan order, whatever order the results
/// finished in.
public struct ResultPosition: Hashable, Comparable, Sendable {
    public var suite: Int
    public var scenario: Int
    public var slot: Int
    /// A flow step's place among its scenario's results after `slot` (which predecessor of its
    /// `after:` it ran after): that result's slot and lane, then its own place in the fan-out
    /// (`ips: all` on another host). Empty for a scenario that runs after none.
    public var lane: [Int]

    public init(suite: Int, scenario: Int, slot: Int, lane: [Int] = []) {
        self.suite = suite
        self.scenario = scenario
        self.slot = slot
        self.lane = lane
    }

    public static func < (lhs: ResultPosition, rhs: ResultPosition) -> Bool {
        if (lhs.suite, lhs.scenario, lhs.slot) != (rhs.suite, rhs.scenario, rhs.slot) {
            return (lhs.suite, lhs.scenario, lhs.slot) < (rhs.suite, rhs.scenario, rhs.slot)
        }
        return lhs.lane.lexicographicallyPrecedes(rhs.lane)
    }
}

/// Takes each result as the run produces it — console lines, reports, tallies — so nothing
/// has to keep every result until the end. Called on the engine's thread, one call at a time.
public protocol ResultSink: AnyObject {
    /// A result finished (its last attempt, when it was retried).
    func finished(_ result: ScenarioResult, at position: ResultPosition)
    /// Once an interrupted run has ended: a planned result that never finished, skipped with
    /// the reason `interrupted`. Reports list it; the console, which printed no line for it,
    /// need not.
    func notRun(_ result: ScenarioResult, at position: ResultPosition)
    /// What the run now knows it will do, as it learns it: a progress display reads it;
    /// other sinks need not.
    func planned(_ change: PlannedChange)
}

extension ResultSink {
    public func planned(_ change: PlannedChange) {}
}

/// News of a run's size: scenarios resolve (and fan out) only as they start.
public enum PlannedChange: Sendable, Equatable {
    /// At the start: this many scenarios will each resolve into their results.
    case scenarios(Int)
    /// One of them resolved into this many results.
    case expanded(results: Int)
    /// A flow step started on a lane with this many results (steps are not among `scenarios`).
    case steps(results: Int)
}

/// The same results to several sinks, in order.
public final class ResultFanOut: ResultSink {
    private let sinks: [any ResultSink]

    public init(_ sinks: [any ResultSink]) {
        self.sinks = sinks
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        for sink in sinks { sink.finished(result, at: position) }
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        for sink in sinks { sink.notRun(result, at: position) }
    }

    public func planned(_ change: PlannedChange) {
        for sink in sinks { sink.planned(change) }
    }
}
