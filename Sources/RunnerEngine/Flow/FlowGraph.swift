import RunnerPlan

/// The `after:` edges among the scenarios a suite runs, both ways, by index in that list.
struct FlowGraph {
    /// Per scenario: the scenarios that run after it, each with the place of this one in its
    /// `after:` list (the slot of the step's results that ran after this one).
    let dependents: [[(step: Int, reference: Int)]]
    /// Whether the scenario runs after another: its predecessors start it, not the scheduler.
    let isStep: [Bool]

    init(_ scenarios: [Scenario]) {
        var dependents: [[(step: Int, reference: Int)]] = Array(repeating: [], count: scenarios.count)
        var isStep = Array(repeating: false, count: scenarios.count)
        if scenarios.contains(where: { !$0.after.isEmpty }) {
            var index: [String: Int] = [:]
            index.reserveCapacity(scenarios.count)
            for (position, scenario) in scenarios.enumerated() { index[scenario.name] = position }
            for (position, scenario) in scenarios.enumerated() {
                for (reference, predecessor) in scenario.after.enumerated() {
                    // The plan check made every name known; the selection took every predecessor.
                    guard let before = index[predecessor.name] else { continue }
                    dependents[before].append((position, reference))
                    isStep[position] = true
                }
            }
        }
        self.dependents = dependents
        self.isStep = isStep
    }
}
