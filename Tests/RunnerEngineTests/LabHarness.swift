import Foundation
import RunnerEngine
import LabTestSupport
import PlanFixtures
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing
import RunnerVocabulary

/// Writes plans for the lab and runs them through the real runner (libcurl over loopback).
struct LabRun {
    let lab: Lab

    static func make() async throws -> LabRun { LabRun(lab: try await SharedLab.get()) }

    /// A lab of its own, for tests that count what the lab saw (others run in parallel).
    static func dedicated() async throws -> LabRun { LabRun(lab: try await Lab.start()) }

    /// Loads and runs `yaml`; the blocking libcurl loop runs on its own thread, off the test pool.
    func run(
        _ yaml: String, jobs: Int = 8, retries: Int? = nil, environment: [String: String] = [:]
    ) async throws -> CollectedRun {
        let path = try LabPlans.write(yaml, lab: lab)
        let plan = try PlanLoader.load(path: path, environment: environment)
        var options = RunOptions()
        options.jobs = jobs
        options.retriesOverride = retries
        let chosen = options
        return try await offPool {
            let collector = ResultCollector()
            let run = try PlanRunner(options: chosen, sink: collector).run([plan])
            return CollectedRun(result: run, all: collector.inPlanOrder)
        }
    }
}

/// A run's summary and every result it handed over, in plan order.
struct CollectedRun: Sendable {
    var result: RunResult
    var all: [ScenarioResult]

    var suites: [SuiteResult] { result.suites }
    var duration: Double { result.duration }
}

/// Keeps what a run hands over, with where each result sits.
final class ResultCollector: ResultSink {
    private(set) var received: [(result: ScenarioResult, position: ResultPosition, ran: Bool)] = []

    func finished(_ result: ScenarioResult, at position: ResultPosition) {
        received.append((result, position, true))
    }

    func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        received.append((result, position, false))
    }

    var inPlanOrder: [ScenarioResult] { received.sorted { $0.position < $1.position }.map(\.result) }
}

extension ScenarioResult {
    var passed: Bool {
        if case .passed = outcome { return true }
        return false
    }

    var problems: [Problem] {
        if case .failed(let problems) = outcome { return problems }
        return []
    }

    var error: TransferError? {
        if case .errored(let error) = outcome { return error }
        return nil
    }

    /// A one-line account for test failure messages.
    var summary: String {
        switch outcome {
        case .passed: "\(displayName): passed"
        case .failed(let problems): "\(displayName): failed: \(problems.map(\.description).joined(separator: "; "))"
        case .errored(let error): "\(displayName): error \(error.kind): \(error)"
        case .skipped(let reason): "\(displayName): skipped: \(reason)"
        }
    }
}
