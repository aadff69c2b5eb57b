// The JSON report's `runner.state` (docs/json-report.md), read back by `runner merge`. Keys are
// declared in key order; `recorded` is written for readers and worked out again when read.
extension StateRecording: Codable {
    enum CodingKeys: String, CodingKey {
        case file
        case notRecorded = "not_recorded"
        case problems
        case recorded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            file: try container.decode(String.self, forKey: .file),
            problems: try container.decode([String].self, forKey: .problems),
            notRecorded: try container.decode([AnswerKey].self, forKey: .notRecorded))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(notRecorded, forKey: .notRecorded)
        try container.encode(problems, forKey: .problems)
        try container.encode(isComplete, forKey: .recorded)
    }
}
