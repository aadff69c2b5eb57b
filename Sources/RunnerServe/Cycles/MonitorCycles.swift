import ArgumentParser
import Dispatch
import Foundation
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
/// (`ResolutionMemory`), as an app keeps them.
final class MonitorCycles: @unchecked Sendable {
    private let planOptions: PlanOptions
    private let selection: RunSelection
    private let every: Duration
    private let snapshot: CycleSnapshot
    private let memory = ResolutionMemory()
    /// Where each cycle's reports are written before they are read back to be served.
    private let directory: URL
    /// `--junit`, `--json` and `--html`: where each cycle's documents are copied, opened once.
    private let copies: ReportTargets
    /// Wakes the wait between cycles early: a stop.
    private let wake = DispatchSemaphore(value: 0)

    // Under `lock`.
    private let lock = NSLock()
    private var plans: [Plan]
    private var stoppedBy: Int32?
    private var running: PlanRunner?

    init(plans: [Plan], planOptions: PlanOptions, selection: RunSelection, every: Duration, snapshot: CycleSnapshot) throws {
        self.plans = plans
        self.planOptions = planOptions
        self.selection = selection
        self.every = every
        self.snapshot = snapshot
        do throws(ReportWriteError) {
            copies = try ReportTargets(junit: selection.junit, json: selection.json, html: selection.html)
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Runs cycles until `stop`, then removes its scratch folder (here, not in `deinit`: the
    /// signal handlers hold this object for the process's lifetime).
    func run() {
        defer { try? FileManager.default.removeItem(at: directory) }
        while true {
            let started = DispatchTime.now()
            guard let plans = lock.withLock({ stoppedBy == nil ? self.plans : nil }) else { break }
            runCycle(plans)
            let (seconds, attoseconds) = every.components
            let next = started + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            if lock.withLock({ stoppedBy != nil }) { break }
            _ = wake.wait(timeout: next)
        }
    }

    /// Interrupts the running cycle and ends the loop (from a signal handler's queue).
    func stop(signal: Int32) {
        lock.withLock {
            stoppedBy = stoppedBy ?? signal
            _ = running?.interrupter.interrupt(signal: signal)
        }
        wake.signal()
    }

    /// Re-reads the plans; the next cycle runs them when every one loads, the running ones stay
    /// otherwise (the errors go to standard error with their file:line:col).
    func reload() {
        let fresh: [Plan]
        do {
            fresh = try PlanFiles.load(planOptions)
        } catch {
            snapshot.reloaded(successfully: false)
            Console.error("serve: reload failed: the plans above have errors; the running plans stay")
            return
        }
        let problems = selection.problems(with: fresh)
        guard problems.isEmpty else {
            problems.forEach { Console.error("error: \($0)") }
            snapshot.reloaded(successfully: false)
            Console.error("serve: reload failed; the running plans stay")
            return
        }
        lock.withLock { plans = fresh }
        snapshot.reloaded(successfully: true)
        Console.error("serve: reloaded \(fresh.count) plan\(fresh.count == 1 ? "" : "s"); the next cycle runs them")
    }

    /// One run of `plans`, its reports published when it completes (not when it was stopped).
    private func runCycle(_ plans: [Plan]) {
        let redactor = Redactor(named: plans.flatMap(\.secrets))
        let identities = plans.map { PlanIdentity(name: $0.name, file: $0.path) }
        let junitPath = directory.appendingPathComponent("junit.xml").path
        let jsonPath = directory.appendingPathComponent("report.json").path
        let htmlPath = directory.appendingPathComponent("report.html").path
        let reports: [any StreamedReport]
        do throws(ReportWriteError) {
            reports = [
                try JUnitReport(path: junitPath, plans: identities, redactor: redactor),
                try JSONReport(path: jsonPath, plans: identities, redactor: redactor),
                try HTMLReport(path: htmlPath, plans: identities, redactor: redactor),
            ]
        } catch {
            Console.error("serve: error: \(error.description)")
            return
        }
        var options = selection.runOptions
        options.resolutionMemory = memory
        options.redactor = redactor
        let worker = ReportWorker(reports)
        let metrics = MetricsCollector(plans: identities, redactor: redactor)
        let runner = PlanRunner(options: options, sink: ResultFanOut([worker, metrics]))
        lock.withLock {
            running = runner
            if let stoppedBy { _ = runner.interrupter.interrupt(signal: stoppedBy) }
        }
        defer { lock.withLock { running = nil } }
        let run: RunResult
        do {
            run = try runner.run(plans)
        } catch {
            Console.error("serve: error: \(redactor.redact(error.description))")
            return
        }
        let errors = worker.finish(run)
        guard errors.isEmpty else {
            errors.forEach { Console.error("serve: error: \($0.description)") }
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
            Console.error("serve: error: cannot read this cycle's reports back: \(error.localizedDescription)")
            return
        }
        let number = snapshot.publish(
            samples: metrics.samples(of: run), reportJSON: reportJSON, junitXML: junitXML, reportHTML: reportHTML)
        writeCopies(junitXML: junitXML, reportJSON: reportJSON, reportHTML: reportHTML)
        let counts = run.counts
        Console.error(
            "serve: cycle \(number) done in \(String(format: "%.2f", run.duration)) s: \(counts.passed) passed, "
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
                Console.error("serve: error: \(error.description)")
            }
        }
    }
}
