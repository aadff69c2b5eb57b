import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// A flow step's results on one lane: the strategy and IP it keeps, or the skip that stands
/// for it when its predecessor did not pass.
enum FlowSteps {
    /// The predecessor's strategy when it can carry the step's scheme, else `auto`'s.
    static func strategy(of step: Scenario, on lane: FlowLane) -> StrategyKind {
        ResultStateMachine.hopStrategy(requested: lane.strategy, scheme: step.request.url.scheme)
    }

    /// The lane's IP, when the step goes to the same host under a strategy that pins.
    static func keptIP(of step: Scenario, on lane: FlowLane) -> IPAddress? {
        guard StrategyRules.pins(strategy(of: step, on: lane)), step.request.url.host == lane.host else { return nil }
        return lane.ip
    }

    /// Whether the step's host must be looked up through its own domain map (another host).
    static func needsResolution(_ step: Scenario, on lane: FlowLane) -> Bool {
        StrategyRules.pins(strategy(of: step, on: lane)) && keptIP(of: step, on: lane) == nil
    }

    /// The step's results on `lane`: one on the kept IP, or one per IP its map gives for
    /// another host (`ips`), each on the same lane.
    static func expand(
        _ step: Scenario, on lane: FlowLane, resolution: Result<Resolution, TransferError>?
    ) -> [PlannedResult] {
        let strategy = strategy(of: step, on: lane)
        var planned: [PlannedResult]
        if let ip = keptIP(of: step, on: lane) {
            let kept = Resolution(addresses: [ip], source: "kept from \(lane.steps.first?.description ?? "the flow")", lookupTime: 0)
            planned = [PlannedResult(scenario: step, strategy: strategy, ip: ip, resolution: kept, resolveError: nil)]
        } else {
            var onLane = step
            onLane.strategies = [strategy]
            planned = ResultExpansion.expand(onLane, strategyOverride: nil, resolution: resolution)
        }
        for index in planned.indices { planned[index].lane = lane }
        return planned
    }

    /// The result that stands for `step` after `predecessor`, which did not pass.
    static func skipped(_ step: Scenario, after predecessor: ScenarioResult, predecessorHost: String) -> ScenarioResult {
        let strategy = ResultStateMachine.hopStrategy(requested: predecessor.strategy, scheme: step.request.url.scheme)
        let ip = StrategyRules.pins(strategy) && step.request.url.host == predecessorHost ? predecessor.ip : nil
        var result = ScenarioResult(
            scenario: step.name, strategy: strategy, ip: ip, tags: step.tags,
            outcome: .skipped(reason: "\(predecessor.step) did not pass (\(Self.word(for: predecessor.outcome)))"),
            evidence: Evidence(strategy: strategy, ipSource: "", insecure: step.settings.insecure), duration: 0)
        result.after = [predecessor.step] + predecessor.after
        return result
    }

    private static func word(for outcome: Outcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .failed: "failed"
        case .errored(let error): "error: \(error.kind.rawValue)"
        case .skipped: "skipped"
        }
    }
}
