import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// What the SDK's pick (`sdk:`) makes of a result that did not pass: on an address a
/// population's apps use, a problem of kind `pick` first (their apps are on a failing edge);
/// on one no population picks, a failure still, saying so.
enum PickVerdict {
    static func apply(
        to outcome: Outcome, pick: PickEvidence, address: IPAddress?, retained: Bool, notes: inout [String]
    ) -> Outcome {
        switch outcome {
        case .passed, .skipped:
            return outcome
        case .failed, .errored:
            guard let address else { return outcome }
            guard pick.pickers.isEmpty else {
                return outcome.failing(first: Problem.failingPick(pick, address: address.text))
            }
            // A retained address is one apps hold from an older answer: its own note says so.
            guard !retained else { return outcome }
            switch outcome {
            case .errored(var error):
                error.diagnosis = [error.diagnosis, pick.unpickedConsequence].compactMap { $0 }.joined(separator: "; ")
                return .errored(error)
            case .failed, .passed, .skipped:
                notes.append(pick.unpickedConsequence)
                return outcome
            }
        }
    }
}
