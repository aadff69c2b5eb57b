import RunnerPlan

/// Where a reload (SIGHUP) gets the plans again, as the command knows them: the files re-read
/// (their errors said by the loader), and why the plans cannot run with the command's choices.
public struct MonitorPlanSource: Sendable {
    /// Reads the plans again; nil when any of them has errors (said already, with file:line:col).
    public var load: @Sendable () -> [Plan]?
    /// Why `plans` cannot run with the command's choices, as error lines; empty when they can.
    public var problems: @Sendable ([Plan]) -> [String]

    /// A source that reloads with `load` and judges with `problems`.
    public init(load: @escaping @Sendable () -> [Plan]?, problems: @escaping @Sendable ([Plan]) -> [String]) {
        self.load = load
        self.problems = problems
    }
}
