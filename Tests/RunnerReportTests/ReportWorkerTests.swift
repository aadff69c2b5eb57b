import Foundation
import Testing

@testable import RunnerReport
import RunnerResults

/// The worker that renders reports off the engine's thread, in batches, with a bounded backlog.
@Suite struct ReportWorkerTests {
    /// Records what it is given; its first result can be held until `release`.
    final class Recorder: StreamedReport, @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [(kind: String, scenario: Int)] = []
        private var finishes = 0
        private let hold: DispatchSemaphore?

        init(holdingTheFirst: Bool = false) {
            hold = holdingTheFirst ? DispatchSemaphore(value: 0) : nil
        }

        func release() { hold?.signal() }

        func finished(_ result: ScenarioResult, at position: ResultPosition) { record("finished", position) }
        func notRun(_ result: ScenarioResult, at position: ResultPosition) { record("notRun", position) }

        private func record(_ kind: String, _ position: ResultPosition) {
            let first = lock.withLock { seen.isEmpty }
            if first { hold?.wait() }
            lock.withLock { seen.append((kind, position.scenario)) }
        }

        func finish(_ run: RunResult) throws(ReportWriteError) { lock.withLock { finishes += 1 } }

        var record: (seen: [(kind: String, scenario: Int)], finishes: Int) { lock.withLock { (seen, finishes) } }
    }

    private static let result = Fixture.passed
    private static let run = RunResult(suites: [], startedAt: Fixture.start, duration: .seconds(1))

    @Test(
        "every result reaches every report once, in the order handed over, on either thread, whatever the batch size",
        arguments: [ReportWorker.Threading.own, .caller], [1, 3, 128])
    func everyResultInOrder(threading: ReportWorker.Threading, batchSize: Int) {
        let reports = [Recorder(), Recorder()]
        let worker = ReportWorker(reports, threading: threading, backlog: 16, batchSize: batchSize)
        for scenario in 0..<100 {
            let position = ResultPosition(suite: 0, scenario: scenario, slot: 0)
            if scenario % 7 == 6 { worker.notRun(Self.result, at: position) } else { worker.finished(Self.result, at: position) }
        }
        #expect(worker.finish(Self.run).isEmpty)
        for report in reports {
            let (seen, finishes) = report.record
            #expect(seen.map(\.scenario) == Array(0..<100))
            #expect(seen.map(\.kind) == (0..<100).map { $0 % 7 == 6 ? "notRun" : "finished" })
            #expect(finishes == 1)
        }
    }

    @Test("the engine waits once `backlog` results are waiting to be rendered")
    func backlogBoundsTheWait() async throws {
        let report = Recorder(holdingTheFirst: true)
        let worker = ReportWorker([report], threading: .own, backlog: 10, batchSize: 4)
        let handed = Counter()
        let producer = Thread {
            for scenario in 0..<50 {
                worker.finished(Self.result, at: ResultPosition(suite: 0, scenario: scenario, slot: 0))
                handed.increment()
            }
        }
        producer.start()
        let deadline = Date().addingTimeInterval(20)
        while handed.value < 10, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 200_000_000)
        // The first result is held, so ten are in flight and the eleventh waits.
        #expect(handed.value == 10)
        report.release()
        // A deadline of its own, from now: with the suite's tests blocking the two cooperative
        // threads, this test's sleep above can resume long after it asked to (seen: 25 s), and a
        // deadline counted from the start had then passed before the worker was even released.
        let drained = Date().addingTimeInterval(20)
        while handed.value < 50, Date() < drained { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(handed.value == 50)
        #expect(worker.finish(Self.run).isEmpty)
        #expect(report.record.seen.map(\.scenario) == Array(0..<50))
    }

    /// A report that cannot be written.
    final class Failing: StreamedReport, @unchecked Sendable {
        let path: String
        init(_ path: String) { self.path = path }
        func finished(_ result: ScenarioResult, at position: ResultPosition) {}
        func notRun(_ result: ScenarioResult, at position: ResultPosition) {}
        func finish(_ run: RunResult) throws(ReportWriteError) { throw ReportWriteError(path: path, reason: "full") }
    }

    @Test("reports are written side by side; each one's error comes back, in the reports' order",
          arguments: [ReportWorker.Threading.own, .caller])
    func errorsOfReportsWrittenSideBySide(threading: ReportWorker.Threading) {
        let written = Recorder()
        let worker = ReportWorker([Failing("a"), written, Failing("b"), Failing("c")], threading: threading)
        worker.finished(Self.result, at: ResultPosition(suite: 0, scenario: 0, slot: 0))
        #expect(worker.finish(Self.run).map(\.path) == ["a", "b", "c"])
        #expect(written.record.finishes == 1)
        #expect(written.record.seen.count == 1)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
