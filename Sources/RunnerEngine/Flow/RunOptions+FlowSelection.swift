import RunnerPlan

/// The scenarios of a plan a run takes, flows kept whole.
struct ScenarioSelection {
    /// Indices into the plan's scenarios, in plan order.
    var indices: [Int]
    /// Those taken only because a selected scenario runs after them (`--tag`, `--filter`).
    var predecessorsOnly: Set<Int>
}

extension RunOptions {
    /// The scenarios of `plan` this run takes: those `--tag`, `--filter` and `--client` match, with every
    /// scenario they run after (`after:`, transitively), in the shard (`--shard`) of their
    /// flow's first scenario, so that a flow stays whole in one shard.
    func selection(of plan: Plan) -> ScenarioSelection {
        let scenarios = plan.scenarios
        let hasFlows = scenarios.contains { !$0.after.isEmpty }
        var index: [String: Int] = [:]
        if hasFlows {
            for (position, scenario) in scenarios.enumerated() { index[scenario.name] = position }
        }
        let predecessors: [[Int]] = hasFlows ? scenarios.map { $0.after.compactMap { index[$0.name] } } : []

        var selected = scenarios.indices.map { matches(scenarios[$0], of: plan) }
        var predecessorsOnly = Set<Int>()
        if hasFlows, !(tags.isEmpty && filter == nil && onlyClients == nil) {
            var stack = scenarios.indices.filter { selected[$0] }
            while let next = stack.popLast() {
                for predecessor in predecessors[next] where !selected[predecessor] {
                    selected[predecessor] = true
                    predecessorsOnly.insert(predecessor)
                    stack.append(predecessor)
                }
            }
        }
        if let shard {
            let roots = hasFlows ? Self.flowRoots(predecessors) : Array(scenarios.indices)
            for position in scenarios.indices where selected[position] {
                selected[position] = shard.holds(plan: plan.name, scenario: scenarios[roots[position]].name)
            }
            predecessorsOnly = predecessorsOnly.filter { selected[$0] }
        }
        return ScenarioSelection(indices: scenarios.indices.filter { selected[$0] }, predecessorsOnly: predecessorsOnly)
    }

    /// For each scenario, the first scenario (in plan order) of the flow it belongs to: those
    /// joined by `after:` in either direction.
    static func flowRoots(_ predecessors: [[Int]]) -> [Int] {
        var parent = Array(predecessors.indices)
        func root(_ node: Int) -> Int {
            var node = node
            while parent[node] != node {
                parent[node] = parent[parent[node]]
                node = parent[node]
            }
            return node
        }
        for (node, befores) in predecessors.enumerated() {
            for before in befores {
                let (a, b) = (root(node), root(before))
                // The smaller index becomes the root: the flow's first scenario.
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        return predecessors.indices.map(root)
    }
}
