import RunnerTransport
import Testing
import RunnerVocabulary

/// The response of a transfer that must have succeeded (its failure is thrown otherwise).
func response(_ outcome: TransferOutcome?) throws -> TransferResponse {
    let outcome = try #require(outcome)
    switch outcome.result {
    case .success(let response): return response
    case .failure(let failure): throw failure
    }
}

/// The failure of a transfer that must have failed (recorded as an issue otherwise).
func failure(_ outcome: TransferOutcome?) throws -> TransferError {
    let outcome = try #require(outcome)
    guard case .failure(let failure) = outcome.result else {
        Issue.record("expected a failure, got \(outcome.result)")
        throw CancellationError()
    }
    return failure
}
