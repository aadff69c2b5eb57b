import Foundation
import NIOConcurrencyHelpers
import RunnerEngine
import RunnerReport
import RunnerResults

/// What `serve` shows: the latest completed cycle (its reports and its metrics' samples),
/// replaced whole when a cycle completes, and the runner's own state, read by the HTTP
/// server's thread. The metrics are rendered when asked for, so a reload's outcome shows at
/// once, not only after the next cycle.
public final class CycleSnapshot: Sendable {
    /// What a completed cycle left and how the runner fares, changed whole under the box's lock.
    private struct State {
        var samples: CycleSamples?
        var reportJSON: [UInt8] = []
        var junitXML: [UInt8] = []
        var reportHTML: [UInt8] = []
        var cyclesTotal = 0
        var lastReloadSucceeded = true
        /// With a state file (`--state`): how its writes have gone.
        var stateWrites: StateWriteHealth?
    }

    private let constantLabels: [MetricLabel]
    private let state = NIOLockedValueBox(State())

    /// An empty snapshot whose series all carry `constantLabels` (`--label`).
    public init(constantLabels: [MetricLabel]) {
        self.constantLabels = constantLabels
    }

    /// The latest cycle's documents; nil until the first has completed.
    public var latest: Documents? {
        state.withLockedValue { state in
            guard let samples = state.samples else { return nil }
            let exposition = MetricsExposition(
                cycle: samples, cyclesTotal: state.cyclesTotal, configLastReloadSuccessful: state.lastReloadSucceeded,
                version: RunnerVersion.current, constantLabels: constantLabels, stateWrites: state.stateWrites)
            return Documents(
                metrics: { exposition.render() }, reportJSON: state.reportJSON, junitXML: state.junitXML,
                reportHTML: state.reportHTML, stateProblem: state.stateWrites?.lastProblem)
        }
    }

    /// A completed cycle replaces the one shown; returns how many have completed.
    public func publish(samples: CycleSamples, reportJSON: [UInt8], junitXML: [UInt8], reportHTML: [UInt8]) -> Int {
        state.withLockedValue { state in
            state.samples = samples
            state.reportJSON = reportJSON
            state.junitXML = junitXML
            state.reportHTML = reportHTML
            state.cyclesTotal += 1
            return state.cyclesTotal
        }
    }

    /// Counts a cycle's state writes, which ended at `end` (whether or not its reports are
    /// published: an interrupted cycle's answers count too); returns whether the state file
    /// records again after a cycle that failed.
    public func recorded(_ recording: StateRecording, endedAt end: Date) -> Bool {
        state.withLockedValue { state in
            var health = state.stateWrites ?? StateWriteHealth()
            defer { state.stateWrites = health }
            return health.count(recording, endedAt: end)
        }
    }

    /// How the last reload went (`runner_config_last_reload_successful`).
    public func reloaded(successfully: Bool) {
        state.withLockedValue { $0.lastReloadSucceeded = successfully }
    }
}
