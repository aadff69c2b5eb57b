import Foundation
import RunnerEngine
import LabTestSupport
import PlanFixtures
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing

/// Writes plans for the lab and runs them through the real runner (libcurl over loopback).
struct LabRun {
    let lab: Lab

    static func make() async throws -> LabRun { LabRun(lab: try await SharedLab.get()) }

    /// A lab of its own, for tests that count what the lab saw (others run in parallel).
    static func dedicated() async throws -> LabRun { LabRun(lab: try await Lab.start()) }

    /// Loads and runs `yaml`; the blocking libcurl loop runs on its own thread, off the test pool.
    func run(
        _ yaml: String, jobs: Int = 8, retries: Int? = nil, environment: [String: String] = [:]
    ) async throws -> RunResult {
        let path = try LabPlans.write(yaml, lab: lab)
        let plan = try PlanLoader.load(path: path, environment: environment)
        var options = RunOptions()
        options.jobs = jobs
        options.retriesOverride = retries
        let chosen = options
        return try await offPool { try PlanRunner(options: chosen).run([plan]) }
    }
}

extension RunResult {
    var all: [ScenarioResult] { suites.flatMap(\.results) }
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
