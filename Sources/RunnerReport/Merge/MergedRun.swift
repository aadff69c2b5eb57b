import RunnerResults

/// Reports of a run's shards joined into one run: what the report writers need to write it
/// again, as one run would have.
public struct MergedRun: Sendable {
    public var run: RunResult
    /// Every plan, in the order the shards ran them.
    public var plans: [PlanIdentity]
    /// Every result with its place, in plan order.
    public var results: [(ScenarioResult, ResultPosition)]
}
