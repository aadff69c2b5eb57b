import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport

/// Runs validated plans: expands each scenario into its results, drives every transfer on one
/// libcurl engine (`jobs` in flight across all plans), and judges each result.
public final class PlanRunner {
    private let options: RunOptions
    private let onResult: (ScenarioResult) -> Void
    /// Stops the run from another thread (SIGINT/SIGTERM).
    public let interrupter = RunInterrupter()

    /// - Parameter onResult: called once per result as it completes (console lines).
    public init(options: RunOptions, onResult: @escaping (ScenarioResult) -> Void = { _ in }) {
        self.options = options
        self.onResult = onResult
    }

    /// Runs `plans` to completion and returns one suite per plan, results in plan order.
    public func run(_ plans: [Plan]) throws(TransportError) -> RunResult {
        let engine = try TransferEngine(maxInFlight: max(1, options.jobs))
        let startedAt = Date()
        let clock = DispatchTime.now()
        let suites = plans.map { SuiteRun(plan: $0, options: options, interrupter: interrupter) }
        interrupter.attach(engine)
        defer { interrupter.detach() }
        for suite in suites {
            suite.start(on: engine, onResult: onResult)
        }
        engine.run()
        let duration = Double(DispatchTime.now().uptimeNanoseconds - clock.uptimeNanoseconds) / 1e9
        return RunResult(
            suites: suites.map { $0.result() }, startedAt: startedAt, duration: duration,
            interruptedBy: interrupter.signal)
    }
}

/// One plan's results as they come in.
private final class SuiteRun {
    private let plan: Plan
    private let options: RunOptions
    private let resolver: DomainResolver
    private let interrupter: RunInterrupter
    private var jobs: [ResultJob] = []
    private var results: [ScenarioResult?] = []
    private var startedAt = Date()
    private var clock = DispatchTime.now()
    private var finishedAt: DispatchTime?

    init(plan: Plan, options: RunOptions, interrupter: RunInterrupter) {
        self.plan = plan
        self.options = options
        self.resolver = DomainResolver(plan: plan)
        self.interrupter = interrupter
    }

    func start(on engine: TransferEngine, onResult: @escaping (ScenarioResult) -> Void) {
        startedAt = Date()
        clock = DispatchTime.now()
        let planned = plan.scenarios.filter(options.selects).flatMap { scenario in
            ResultExpansion.expand(scenario, strategyOverride: options.strategyOverride) { host, map in
                self.resolver.resolve(host: host, map: map)
            }
        }
        results = Array(repeating: nil, count: planned.count)
        jobs = planned.enumerated().map { index, planned in
            ResultJob(planned: planned) { [unowned self] result in
                var result = result
                if interrupter.signal != nil, case .errored = result.outcome {
                    // Aborted by the interruption, not by the service: it did not finish.
                    result.outcome = .skipped(reason: "interrupted")
                }
                results[index] = result
                finishedAt = DispatchTime.now()
                onResult(result)
            }
        }
        if jobs.isEmpty { finishedAt = clock }
        for job in jobs { job.start(on: engine) }
    }

    func result() -> SuiteResult {
        let end = finishedAt ?? DispatchTime.now()
        let collected = zip(jobs, results).map { job, result in
            result ?? ScenarioResult(
                scenario: job.planned.scenario.name, strategy: job.planned.strategy.rawValue,
                ip: job.planned.ip?.text, tags: job.planned.scenario.tags,
                outcome: .skipped(reason: "interrupted"),
                evidence: Evidence(strategy: job.planned.strategy.rawValue, ipSource: "", insecure: false),
                duration: 0)
        }
        return SuiteResult(
            name: plan.name, file: plan.path, startedAt: startedAt,
            duration: Double(end.uptimeNanoseconds - clock.uptimeNanoseconds) / 1e9,
            hostname: Host.name, properties: properties(), results: collected)
    }

    private func properties() -> [Property] {
        var properties = [
            Property(name: "runner.version", value: RunnerVersion.current),
            Property(name: "plan.path", value: plan.path),
        ]
        for answer in resolver.answers {
            let value: String
            switch answer.answer {
            case .success(let resolution):
                value = resolution.addresses.map(\.text).joined(separator: ", ") + " (\(resolution.source))"
                    + resolution.notes.map { "; \($0)" }.joined()
            case .failure(let error):
                value = "error: \(error.message)"
            }
            properties.append(Property(name: "domains.\(answer.map).\(answer.host)", value: value))
        }
        return properties
    }
}

private enum Host {
    static let name: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(cString: buffer)
    }()
}
