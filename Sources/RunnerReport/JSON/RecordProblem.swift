/// A value in a JSON report that no runner writes, with where it is.
struct RecordProblem: Error, Equatable {
    /// Where, e.g. `results[3].strategy`.
    var field: String
    var message: String
}
