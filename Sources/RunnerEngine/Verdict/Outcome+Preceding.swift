import RunnerResults

extension Outcome {
    /// The outcome with `problems` found before the request was judged (a resolver's foreign
    /// addresses, a population sent outside its edges) in front: a pass fails on them, a
    /// failure lists them first, and a transfer error becomes a `request` problem after them;
    /// a skipped result stays skipped.
    func failing(first problems: [Problem]) -> Outcome {
        guard !problems.isEmpty else { return self }
        switch self {
        case .passed:
            return .failed(problems)
        case .failed(let others):
            return .failed(problems + others)
        case .errored(let error):
            return .failed(problems + [Problem(
                subject: "request", expected: "a response", actual: "\(error.kind.rawValue) error: \(error.message)")])
        case .skipped:
            return self
        }
    }
}
