/// What checking a plan that loads found besides the plan: what it could not check, and the
/// environment it reads (`runner check`).
public struct PlanCheck: Sendable {
    public var plan: Plan
    /// Values an unset variable makes, which were not checked (`UnsetEnvironment.unknown`), in
    /// file order; empty when the environment had every variable.
    public var notes: [PlanError]
    /// Every environment variable the plan reads, by name.
    public var environment: [EnvironmentVariableUse]
    /// The scenarios the plan writes: the plan's, and those a value only the environment has
    /// kept from being built (their notes say which).
    public var scenarioCount: Int

    public init(plan: Plan, notes: [PlanError], environment: [EnvironmentVariableUse], scenarioCount: Int? = nil) {
        self.plan = plan
        self.notes = notes
        self.environment = environment
        self.scenarioCount = scenarioCount ?? plan.scenarios.count
    }
}
