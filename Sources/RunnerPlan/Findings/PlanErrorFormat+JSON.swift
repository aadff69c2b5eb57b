import Foundation

extension PlanErrorFormat {
    /// One finding in `--format json`: every field present, null when it has no value.
    struct JSONFinding: Encodable {
        var file: String
        var line: Int?
        var column: Int?
        var endLine: Int?
        var endColumn: Int?
        var severity: String
        var message: String
        var key: String?

        init(_ finding: PlanFinding) {
            file = finding.file
            line = finding.error.location?.line
            column = finding.error.location?.column
            endLine = finding.error.end?.line
            endColumn = finding.error.end?.column
            severity = finding.error.severity.rawValue
            message = finding.error.message
            key = finding.error.keyPath
        }

        enum CodingKeys: String, CodingKey {
            case file, line, column
            case endLine = "end_line"
            case endColumn = "end_column"
            case severity, message, key
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(endLine, forKey: .endLine)
            try container.encode(endColumn, forKey: .endColumn)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
            try container.encode(key, forKey: .key)
        }
    }

    static func json(_ findings: [PlanFinding]) -> String {
        encoded(findings.map(JSONFinding.init))
    }

    /// Pretty-printed, keys sorted: the layout of the runner's other JSON.
    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and nulls only: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
