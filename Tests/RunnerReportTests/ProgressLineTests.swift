import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerReport

/// The progress line's text and the counts behind it.
@Suite struct ProgressLineTests {
    @Test func theLineSaysDoneOfTotalTheOutcomesTheRateAndTimeLeft() {
        let snapshot = ProgressCounter.Snapshot(counts: OutcomeCounts(passed: 1200, failed: 30, errors: 4), expected: 5000)
        let line = ProgressLine(snapshot: snapshot, elapsed: .seconds(3))
        #expect(line.text(width: 200, color: false) == "[1234/5000] 1200 passed, 30 failed, 4 errors · 411/s · 10s left")
        #expect(line.text(width: 200, color: true)
            == "[1234/5000] \u{1B}[32m1200 passed\u{1B}[0m, \u{1B}[31m30 failed\u{1B}[0m, \u{1B}[31m4 errors\u{1B}[0m · 411/s · 10s left")
        // Cut to the terminal, one column kept free, colour codes not counted as columns.
        #expect(line.text(width: 20, color: false) == "[1234/5000] 1200 pa")
        #expect(line.text(width: 20, color: true) == "[1234/5000] \u{1B}[32m1200 pa\u{1B}[0m")
    }

    @Test func beforeAnyResultThereIsNoRateAndAnEstimateSaysSo() {
        let snapshot = ProgressCounter.Snapshot(counts: OutcomeCounts(), expected: 300, estimated: true)
        #expect(ProgressLine(snapshot: snapshot, elapsed: .milliseconds(500)).text(width: 80, color: true) == "[0/~300] 0 passed, 0 failed, 0 errors")
        let done = ProgressCounter.Snapshot(counts: OutcomeCounts(passed: 2, skipped: 1), expected: 3)
        #expect(ProgressLine(snapshot: done, elapsed: .seconds(2)).text(width: 80, color: false) == "[3/3] 2 passed, 0 failed, 0 errors, 1 skipped · 1.5/s")
    }

    @Test(arguments: [(9.2, "10s"), (59.0, "59s"), (200.0, "3m20s"), (3600.0, "1h00m"), (3725.0, "1h02m"), (1e12, "99h59m")])
    func timeLeft(seconds: Double, text: String) {
        #expect(ProgressLine.durationText(seconds) == text)
    }

    /// Scenarios not yet resolved count at the average fan-out of those that have.
    @Test func theTotalIsEstimatedUntilEveryScenarioHasResolved() {
        let counter = ProgressCounter()
        counter.planned(.scenarios(10))
        #expect(counter.snapshot == ProgressCounter.Snapshot(expected: 10, estimated: true))
        counter.planned(.expanded(results: 4))
        counter.planned(.expanded(results: 2))
        #expect(counter.snapshot.expected == 6 + 8 * 3)
        counter.planned(.steps(results: 5))
        for _ in 0..<8 { counter.planned(.expanded(results: 3)) }
        var result = Fixture.passed
        counter.finished(result, at: ResultPosition(suite: 0, scenario: 0, slot: 0))
        result.outcome = .errored(TransferError(kind: .tls, message: "x"))
        counter.finished(result, at: ResultPosition(suite: 0, scenario: 1, slot: 0))
        #expect(counter.snapshot == ProgressCounter.Snapshot(counts: OutcomeCounts(passed: 1, errors: 1), expected: 6 + 24 + 5))
    }
}
