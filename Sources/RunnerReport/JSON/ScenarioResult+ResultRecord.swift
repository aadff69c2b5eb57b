import Foundation
import RunnerResults
import RunnerVocabulary

// Reading a JSON report back into results (`runner merge`): the inverse of `ResultRecord.write`
// (the evidence reads itself back: `Evidence: Decodable`). What the document cannot hold comes
// back empty: a certificate's `notBefore`, a transfer error's curl code, the resolution-fallback
// mark (which only the metrics read).

extension ScenarioResult {
    /// The result a record was written from (`field`: the record's place, for problems).
    init(_ record: ResultRecord, field: String) throws(RecordProblem) {
        guard let strategy = StrategyKind(rawValue: record.strategy) else {
            throw RecordProblem(field: field + ".strategy", message: "unknown strategy '\(record.strategy)'")
        }
        let outcome = try Outcome(
            record.outcome, problems: record.problems, error: record.error, skippedReason: record.skippedReason, field: field)
        var attempts: [Attempt] = []
        for (number, attempt) in record.earlierAttempts.enumerated() {
            let place = "\(field).earlier_attempts[\(number)]"
            let outcome = try Outcome(attempt.outcome, problems: attempt.problems, error: attempt.error, skippedReason: nil, field: place)
            attempts.append(Attempt(outcome: outcome, duration: .milliseconds(attempt.durationMs)))
        }
        var evidence = record.evidence
        evidence.adopt(strategy: strategy, insecure: record.insecure)
        self.init(
            scenario: record.scenario, strategy: strategy, ip: record.ip, tags: record.tags, outcome: outcome,
            evidence: evidence, duration: .milliseconds(record.durationMs), earlierAttempts: attempts)
        for (number, step) in (record.after ?? []).enumerated() {
            guard let kind = StrategyKind(rawValue: step.strategy) else {
                throw RecordProblem(field: "\(field).after[\(number)].strategy", message: "unknown strategy '\(step.strategy)'")
            }
            after.append(ResultStep(scenario: step.scenario, strategy: kind, ip: step.ip))
        }
    }
}

extension Outcome {
    init(
        _ name: String, problems: [ProblemRecord], error: ErrorRecord?, skippedReason: String?, field: String
    ) throws(RecordProblem) {
        switch name {
        case "passed":
            self = .passed
        case "failed":
            var read: [Problem] = []
            for (number, problem) in problems.enumerated() {
                guard let kind = Problem.Kind(rawValue: problem.kind) else {
                    throw RecordProblem(field: "\(field).problems[\(number)].kind", message: "unknown problem kind '\(problem.kind)'")
                }
                read.append(Problem(subject: problem.subject, expected: problem.expected, actual: problem.actual, kind: kind))
            }
            self = .failed(read)
        case "error":
            guard let error else { throw RecordProblem(field: field + ".error", message: "an error result without its error") }
            guard let kind = TransferError.Kind(rawValue: error.type) else {
                throw RecordProblem(field: field + ".error.type", message: "unknown error type '\(error.type)'")
            }
            self = .errored(TransferError(kind: kind, message: error.message, diagnosis: error.diagnosis))
        case "skipped":
            self = .skipped(reason: skippedReason ?? "")
        default:
            throw RecordProblem(field: field + ".outcome", message: "unknown outcome '\(name)'")
        }
    }
}
