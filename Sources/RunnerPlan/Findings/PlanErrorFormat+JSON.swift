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

    static func json(_ findings: [PlanFinding]) throws(Failure) -> String {
        try encoded(findings.map(JSONFinding.init))
    }

    /// Pretty-printed, keys sorted: the layout of the runner's other JSON.
    static func encoded(_ value: some Encodable) throws(Failure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Strings, numbers and nulls only: never expected, but never an empty list that
            // would read as "nothing found" either.
            throw .encoding(String(describing: error))
        }
    }
}
