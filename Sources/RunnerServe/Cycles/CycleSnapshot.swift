import Foundation
import RunnerEngine
import RunnerReport

/// What `serve` shows: the latest completed cycle (its reports and its metrics' samples),
/// replaced whole when a cycle completes, and the runner's own state, read by the HTTP
/// server's threads. The metrics are rendered when asked for, so a reload's outcome shows at
/// once, not only after the next cycle.
final class CycleSnapshot: @unchecked Sendable {
    /// One completed cycle's documents.
    struct Documents: Sendable {
        /// The Prometheus text exposition, rendered on demand.
        var metrics: @Sendable () -> [UInt8]
        var reportJSON: [UInt8]
        var junitXML: [UInt8]
        var reportHTML: [UInt8]
    }

    private let constantLabels: [MetricLabel]
    private let lock = NSLock()
    private var samples: CycleSamples?
    private var reportJSON: [UInt8] = []
    private var junitXML: [UInt8] = []
    private var reportHTML: [UInt8] = []
    private var cyclesTotal = 0
    private var lastReloadSucceeded = true

    init(constantLabels: [MetricLabel]) {
        self.constantLabels = constantLabels
    }

    /// The latest cycle's documents; nil until the first has completed.
    var latest: Documents? {
        lock.withLock {
            guard let samples else { return nil }
            let exposition = MetricsExposition(
                cycle: samples, cyclesTotal: cyclesTotal, configLastReloadSuccessful: lastReloadSucceeded,
                version: RunnerVersion.current, constantLabels: constantLabels)
            return Documents(
                metrics: { exposition.render() }, reportJSON: reportJSON, junitXML: junitXML, reportHTML: reportHTML)
        }
    }

    /// A completed cycle replaces the one shown; returns how many have completed.
    func publish(samples: CycleSamples, reportJSON: [UInt8], junitXML: [UInt8], reportHTML: [UInt8]) -> Int {
        lock.withLock {
            self.samples = samples
            self.reportJSON = reportJSON
            self.junitXML = junitXML
            self.reportHTML = reportHTML
            cyclesTotal += 1
            return cyclesTotal
        }
    }

    /// How the last reload went (`runner_config_last_reload_successful`).
    func reloaded(successfully: Bool) {
        lock.withLock { lastReloadSucceeded = successfully }
    }
}
