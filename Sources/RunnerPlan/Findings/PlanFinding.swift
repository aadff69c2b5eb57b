/// A plan error or note, with the plan it was found in (an error without a place of its own, a
/// plan that cannot be read, still belongs to a file for the tools that show findings by file).
public struct PlanFinding: Sendable, Equatable {
    /// The plan as the command line named it.
    public var plan: String
    public var error: PlanError

    public init(plan: String, error: PlanError) {
        self.plan = plan
        self.error = error
    }

    /// The file the finding is in: its location's, else the plan's.
    public var file: String { error.location?.file ?? plan }
}
