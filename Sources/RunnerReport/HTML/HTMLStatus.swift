import RunnerResults

/// How a result came out, as the HTML report names it: the class that colours its matrix cell
/// and its details, and the value the status filter matches (`data-status`).
enum HTMLStatus: UInt8, CaseIterable {
    case passed
    case failed
    case error
    case skipped

    init(_ outcome: Outcome) {
        switch outcome {
        case .passed: self = .passed
        case .failed: self = .failed
        case .errored: self = .error
        case .skipped: self = .skipped
        }
    }

    /// The class and filter value (`passed`, `failed`, `error`, `skipped`), as the JSON
    /// report's `outcome` says it.
    var name: StaticString {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .error: "error"
        case .skipped: "skipped"
        }
    }

    /// What a matrix cell and a result's badge say, as the console does.
    var label: StaticString {
        switch self {
        case .passed: "PASS"
        case .failed: "FAIL"
        case .error: "ERROR"
        case .skipped: "SKIP"
        }
    }
}
