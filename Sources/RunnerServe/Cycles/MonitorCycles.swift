import Dispatch
import Foundation
import NIOConcurrencyHelpers
import RunnerEngine
import RunnerPlan
import RunnerReport
import RunnerResults

/// `serve`'s cycles: the plans run every `every` (the first at once), one cycle at a time (a
/// long cycle delays the next, never overlaps it), each cycle's reports published whole when it
/// completes. A reload (SIGHUP) replaces the plans for the next cycle when they load, and keeps
/// the running ones when they do not; a stop (SIGINT, SIGTERM) interrupts the running cycle and
/// ends the loop.
///
/// Each cycle is a run of its own (`PlanRunner`, its own engine, so no connection outlives a
/// cycle and each sees the handshake); HTTPDNS answers are kept across cycles by their TTL
/// (`ResolutionMemory`), as an app keeps them. What it says goes to `log`, one line each.
public final class MonitorCycles: Sendable {
    /// What `run`, `stop` and `reload` share across threads, under the box's lock.
    private struct State {
        var plans: [Plan]
        var stoppedBy: Int32?
        /// The running cycle's interrupter, for a stop that comes during it.
        var running: RunInterrupter?
    }

    private let source: MonitorPlanSource
    private let options: RunOptions
    private let every: Duration
    private let snapshot: CycleSnapshot
    private let log: @Sendable (String) -> Void
    private let memory = ResolutionMemory()
    /// Where each cycle's reports are written before they are read back to be served.
    private let directory: URL
    /// `--junit`, `--json` and `--html`: where each cycle's documents are copied, opened once.
    private let copies: ReportTargets
    /// Wakes the wait between cycles early: a stop.
    private let wake = DispatchSemaphore(value: 0)
    private let state: NIOLockedValueBox<State>

    /// Cycles of `plans` run with `options` every `every`, published to `snapshot` and copied to
    /// `copies`; `source` gives the plans again on a reload. Throws when its scratch folder cannot
    /// be made.
    public init(
        plans: [Plan], source: MonitorPlanSource, options: RunOptions, copies: ReportTargets, every: Duration,
        snapshot: CycleSnapshot, log: @escaping @Sendable (String) -> Void
    ) throws {
        state = NIOLockedValueBox(State(plans: plans))
        self.source = source
        self.options = options
        self.copies = copies
        self.every = every
        self.snapshot = snapshot
        self.log = log
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Runs cycles until `stop`, then removes its scratch folder (here, not in `deinit`: the
    /// signal handlers hold this object for the process's lifetime). Blocks the calling thread.
    public func run() {
        defer { try? FileManager.default.removeItem(at: directory) }
        while true {
            let started = DispatchTime.now()
            guard let plans = state.withLockedValue({ $0.stoppedBy == nil ? $0.plans : nil }) else { break }
            runCycle(plans)
            let (seconds, attoseconds) = every.components
            let next = started + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            if state.withLockedValue({ $0.stoppedBy != nil }) { break }
            _ = wake.wait(timeout: next)
        }
    }

    /// Interrupts the running cycle and ends the loop (from a signal handler's queue); returns
    /// false when a stop was asked already.
    @discardableResult
    public func stop(signal: Int32) -> Bool {
        let first = state.withLockedValue { state in
            guard state.stoppedBy == nil else { return false }
            state.stoppedBy = signal
            _ = state.running?.interrupt(signal: signal)
            return true
        }
        wake.signal()
        return first
    }

    /// Re-reads the plans; the next cycle runs them when every one loads, the running ones stay
    /// otherwise (the errors go to `log` with their file:line:col).
    public func reload() {
        guard let fresh = source.load() else {
            snapshot.reloaded(successfully: false)
            log("serve: reload failed: the plans above have errors; the running plans stay")
            return
        }
        let problems = source.problems(fresh)
        guard problems.isEmpty else {
            problems.forEach { log("error: \($0)") }
            snapshot.reloaded(successfully: false)
            log("serve: reload failed; the running plans stay")
            return
        }
        state.withLockedValue { $0.plans = fresh }
        snapshot.reloaded(successfully: true)
        log("serve: reloaded \(fresh.count) plan\(fresh.count == 1 ? "" : "s"); the next cycle runs them")
    }

    /// One run of `plans`, its reports published when it completes (not when it was stopped).
    private func runCycle(_ plans: [Plan]) {
        let redactor = Redactor(named: plans.flatMap(\.secrets))
        let identities = plans.map { PlanIdentity(name: $0.name, file: $0.path) }
        let junitPath = directory.appendingPathComponent("junit.xml").path
        let jsonPath = directory.appendingPathComponent("report.json").path
        let htmlPath = directory.appendingPathComponent("report.html").path
        let reports: ReportSet
        do throws(ReportWriteError) {
            reports = try ReportSet(
                ReportTargets(junit: junitPath, json: jsonPath, html: htmlPath), plans: identities, redactor: redactor,
                version: RunnerVersion.current)
        } catch {
            log("serve: error: \(error.description)")
            return
        }
        var options = options
        options.resolutionMemory = memory
        options.redactor = redactor
        let worker = ReportWorker(reports.reports)
        let metrics = MetricsCollector(plans: identities, redactor: redactor)
        let runner = PlanRunner(options: options, sink: ResultFanOut([worker, metrics]))
        let interrupter = runner.interrupter
        state.withLockedValue { state in
            state.running = interrupter
            if let stoppedBy = state.stoppedBy { _ = interrupter.interrupt(signal: stoppedBy) }
        }
        defer { state.withLockedValue { $0.running = nil } }
        let run: RunResult
        do {
            run = try runner.run(plans)
        } catch {
            log("serve: error: \(redactor.redact(error.description))")
            return
        }
        if let recording = run.stateRecording {
            // Once per cycle, not per answer; the next cycle asks those services again and
            // compares with the file, so what this one could not record is recorded once it can.
            let recovered = snapshot.recorded(recording, endedAt: Date())
            if !recording.isComplete {
                // Kept answers would not be looked up, so not recorded, until their TTL ran out.
                memory.forget(recording.notRecorded)
                log("serve: error: \(redactor.redact(recording.summary())); the next cycle tries again")
            } else if recovered {
                log("serve: state file '\(redactor.redact(recording.file))' records again: this cycle's answers are in it")
            }
        }
        let errors = worker.finish(run)
        guard errors.isEmpty else {
            errors.forEach { log("serve: error: \($0.description)") }
            return
        }
        guard run.interruptedBy == nil else { return }
        let reportJSON: [UInt8]
        let junitXML: [UInt8]
        let reportHTML: [UInt8]
        do {
            reportJSON = Array(try Data(contentsOf: URL(fileURLWithPath: jsonPath)))
            junitXML = Array(try Data(contentsOf: URL(fileURLWithPath: junitPath)))
            reportHTML = Array(try Data(contentsOf: URL(fileURLWithPath: htmlPath)))
        } catch {
            log("serve: error: cannot read this cycle's reports back: \(error.localizedDescription)")
            return
        }
        let number = snapshot.publish(
            samples: metrics.samples(of: run), reportJSON: reportJSON, junitXML: junitXML, reportHTML: reportHTML)
        writeCopies(junitXML: junitXML, reportJSON: reportJSON, reportHTML: reportHTML)
        let counts = run.counts
        log(
            "serve: cycle \(number) done in \(String(format: "%.2f", run.duration.inSeconds)) s: \(counts.passed) passed, "
                + "\(counts.failed) failed, \(counts.errors) errors")
    }

    /// `--junit`, `--json` and `--html` given to `serve`: each cycle's documents, a file
    /// replaced atomically, a stream (`-`, a FIFO) written in place.
    private func writeCopies(junitXML: [UInt8], reportJSON: [UInt8], reportHTML: [UInt8]) {
        for (target, bytes) in [(copies.junit, junitXML), (copies.json, reportJSON), (copies.html, reportHTML)] {
            guard let target else { continue }
            do throws(ReportWriteError) {
                try target.write(Data(bytes))
            } catch {
                log("serve: error: \(error.description)")
            }
        }
    }
}
