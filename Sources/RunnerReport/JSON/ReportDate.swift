import Foundation

/// The reports' dates (`2024-05-01T10:00:00Z`) read back.
enum ReportDate {
    static func parse(_ text: String, field: String) throws(RecordProblem) -> Date {
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) else {
            throw RecordProblem(field: field, message: "'\(text)' is not a date in the form 2024-05-01T10:00:00Z")
        }
        return date
    }
}
