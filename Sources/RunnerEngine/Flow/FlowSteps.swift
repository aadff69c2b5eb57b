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
        guard ResultExpansion.addressSource(of: strategy(of: step, on: lane), in: step) != nil,
            step.request.url.host == lane.host
        else { return nil }
        return lane.ip
    }

    /// Where the step's host must be looked up (another host): its domain map or its resolver;
    /// nil when it keeps the lane's IP or libcurl resolves it.
    static func lookupSource(of step: Scenario, on lane: FlowLane) -> AddressSource? {
        guard keptIP(of: step, on: lane) == nil else { return nil }
        return ResultExpansion.addressSource(of: strategy(of: step, on: lane), in: step)
    }

    /// Whether the step's host must be looked up through its own domain map (another host).
    static func needsResolution(_ step: Scenario, on lane: FlowLane) -> Bool {
        lookupSource(of: step, on: lane) == .domainMap
    }

    /// The step's results on `lane`: one on the kept IP, or one per IP its map gives for
    /// another host (`ips`), each on the same lane.
    static func expand(
        _ step: Scenario, on lane: FlowLane, resolution: Result<Resolution, TransferError>?
    ) -> [PlannedResult] {
        let strategy = strategy(of: step, on: lane)
        var planned: [PlannedResult]
        if let ip = keptIP(of: step, on: lane) {
            let source = lane.steps.first?.described(after: "kept from ") ?? "kept from the flow"
            let kept = Resolution(addresses: [ip], source: source, lookupTime: .zero)
            planned = [PlannedResult(scenario: step, strategy: strategy, ip: ip, resolution: kept, resolveError: nil)]
        } else {
            var onLane = step
            onLane.strategies = [strategy]
            // The one strategy takes the answer from wherever it looks its host up.
            planned = ResultExpansion.expand(onLane, strategyOverride: nil, resolution: resolution, resolverAnswer: resolution)
        }
        for index in planned.indices { planned[index].lane = lane }
        return planned
    }

    /// The result that stands for `step` after `predecessor`, which did not pass.
    static func skipped(_ step: Scenario, after predecessor: ScenarioResult, predecessorHost: String) -> ScenarioResult {
        let strategy = ResultStateMachine.hopStrategy(requested: predecessor.strategy, scheme: step.request.url.scheme)
        let ip = predecessor.ip != nil && step.request.url.host == predecessorHost ? predecessor.ip : nil
        var result = ScenarioResult(
            scenario: step.name, strategy: strategy, ip: ip, tags: step.tags,
            outcome: .skipped(reason: "\(predecessor.step) did not pass (\(Self.word(for: predecessor.outcome)))"),
            evidence: Evidence(strategy: strategy, ipSource: "", insecure: step.settings.insecure), duration: .zero)
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
