import Foundation
import RunnerResults

/// How the state file's writes have gone (`--state`), for `runner_state_write_failures_total`
/// and `runner_state_last_write_success_timestamp_seconds`: a cycle whose answers were not all
/// recorded counts once, whatever the number of answers.
public struct StateWriteHealth: Sendable, Equatable {
    /// Cycles whose state writes failed.
    public var failuresTotal: Int
    /// When the last cycle whose answers were all recorded ended; nil before the first.
    public var lastSuccess: Date?
    /// The last cycle's failure in words; nil when its answers were all recorded.
    public var lastProblem: String?

    public init(failuresTotal: Int = 0, lastSuccess: Date? = nil, lastProblem: String? = nil) {
        self.failuresTotal = failuresTotal
        self.lastSuccess = lastSuccess
        self.lastProblem = lastProblem
    }

    /// Counts a cycle that ended at `end` with `recording`; returns whether the cycle before it
    /// had failed and this one recorded everything (the state file records again).
    @discardableResult
    public mutating func count(_ recording: StateRecording, endedAt end: Date) -> Bool {
        let recovered = lastProblem != nil && recording.isComplete
        if recording.isComplete {
            lastSuccess = end
            lastProblem = nil
        } else {
            failuresTotal += 1
            lastProblem = recording.summary()
        }
        return recovered
    }
}
