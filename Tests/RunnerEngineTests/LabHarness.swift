import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import RunnerPlan
import RunnerResults
import Testing
import RunnerVocabulary

@testable import RunnerEngine

/// Writes plans for the lab and runs them through the real runner (libcurl over loopback).
struct LabRun {
    let lab: Lab

    static func make() async throws -> LabRun { LabRun(lab: try await SharedLab.get()) }

    /// A lab of its own, for tests that count what the lab saw (others run in parallel).
    static func dedicated() async throws -> LabRun { LabRun(lab: try await Lab.start()) }

    /// Loads and runs `yaml`; the blocking libcurl loop runs on its own thread, off the test pool.
    /// - Parameters:
    ///   - clock: the engine's clock (TTLs, timeouts); `afterEachResult` runs as each result is
    ///     handed over, on the engine's thread, e.g. to move a `ManualClock`.
    ///   - wallClock: the calendar time: the run's and suites' start, cookies' and
    ///     certificates' dates, the time signed HTTPDNS queries are signed at.
    ///   - memory: HTTPDNS answers kept from earlier runs (`runner serve`'s cycles).
    ///   - planPath: run the plan already written there (runs of one file), not `yaml`.
    func run(
        _ yaml: String, jobs: Int = 8, retries: Int? = nil, environment: [String: String] = [:],
        clock: MonotonicClock = .system, wallClock: WallClock = .system, memory: ResolutionMemory? = nil,
        planPath: String? = nil, afterEachResult: @escaping @Sendable () -> Void = {}
    ) async throws -> CollectedRun {
        let path = try planPath ?? LabPlans.write(yaml, lab: lab)
        // The lab's own credentials are always there, as a user of the lab has them; a test's win.
        let plan = try PlanLoader.load(path: path, environment: LabDNS.credentialsEnvironment.merging(environment) { $1 })
        var options = RunOptions()
        options.jobs = jobs
        options.retriesOverride = retries
        options.resolutionMemory = memory
        options.clock = RunClock(monotonic: clock, wall: wallClock)
        let chosen = options
        return try await offPool {
            let collector = ResultCollector(afterEach: afterEachResult)
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
    var duration: Duration { result.duration }
}

/// Keeps what a run hands over, with where each result sits.
final class ResultCollector: ResultSink {
    private(set) var received: [(result: ScenarioResult, position: ResultPosition, ran: Bool)] = []
    private let afterEach: () -> Void

    init(afterEach: @escaping () -> Void = {}) {
        self.afterEach = afterEach
    }

    func finished(_ result: ScenarioResult, at position: ResultPosition) {
        received.append((result, position, true))
        afterEach()
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

/// A monotonic clock a test moves by hand (`MonotonicClock(manual.now)`).
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: UInt64 = 1_000_000_000_000

    func now() -> UInt64 { lock.withLock { nanoseconds } }

    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        lock.withLock { nanoseconds += UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000) }
    }

    var clock: MonotonicClock { MonotonicClock { [self] in now() } }
}
