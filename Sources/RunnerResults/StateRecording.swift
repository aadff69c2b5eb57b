/// What a run's state file (`--state`) took of its HTTPDNS answers: the file, and the answers it
/// could not record with why. A run whose answers were not all recorded ends with exit 3 (never
/// read as checked): the next run would not know of the addresses those answers handed out.
public struct StateRecording: Sendable, Equatable {
    /// The state file's path.
    public var file: String
    /// Why writes failed (SQLite's reason, in words), each once, in the order they came.
    public var problems: [String]
    /// The answers that are not in the file, each once, in the order they came.
    public var notRecorded: [AnswerKey]

    public init(file: String, problems: [String] = [], notRecorded: [AnswerKey] = []) {
        self.file = file
        self.problems = problems
        self.notRecorded = notRecorded
    }

    /// Every answer of the run is in the file.
    public var isComplete: Bool { problems.isEmpty && notRecorded.isEmpty }

    /// Adds a failure: `reason` (once) and the answers it left out (each once).
    public mutating func add(problem reason: String, notRecorded answers: some Sequence<AnswerKey>) {
        if !problems.contains(reason) { problems.append(reason) }
        append(answers)
    }

    /// Joins another part of the same run (a shard's): its problems and answers after these.
    public mutating func add(_ other: StateRecording) {
        for problem in other.problems where !problems.contains(problem) { problems.append(problem) }
        append(other.notRecorded)
    }

    private mutating func append(_ answers: some Sequence<AnswerKey>) {
        var seen = Set(notRecorded)
        for answer in answers where seen.insert(answer).inserted { notRecorded.append(answer) }
    }

    /// The answers of `plan` that are not in the file.
    public func notRecorded(ofPlan plan: String) -> [AnswerKey] {
        notRecorded.filter { $0.plan == plan }
    }

    /// `state file 'F' did not record 3 answers (tencent api.example.com, …): REASON; REASON`,
    /// naming at most `listed` answers: what stderr, the console and the reports say.
    public func summary(of answers: [AnswerKey]? = nil, listed: Int = 10) -> String {
        let answers = answers ?? notRecorded
        var named = answers.prefix(listed).map(\.description).joined(separator: ", ")
        if answers.count > listed { named += ", and \(answers.count - listed) more" }
        let count = answers.count == 1 ? "1 answer" : "\(answers.count) answers"
        let because = problems.isEmpty ? "" : ": " + problems.joined(separator: "; ")
        return "state file '\(file)' did not record \(count)\(named.isEmpty ? "" : " (\(named))")\(because)"
    }
}
