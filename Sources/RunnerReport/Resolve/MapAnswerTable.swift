import Foundation
import RunnerResults

/// `runner resolve`'s output: what each plan's maps answered, as a table per plan or as JSON.
public enum MapAnswerTable {
    /// A table per plan, its columns aligned: map, host, client, labels, addresses, TTL and
    /// source (`answer`, `fallback` or `error`, then where the answer came from or why none did).
    public static func text(_ answers: [MapAnswer]) -> String {
        var lines: [String] = []
        var plans: [String] = []
        for answer in answers where !plans.contains(answer.plan) { plans.append(answer.plan) }
        for plan in plans {
            let planAnswers = answers.filter { $0.plan == plan }
            // The SDK's pick has a column only in a plan that names an SDK.
            let picks = planAnswers.contains { $0.pick != nil }
            let rows = planAnswers.map { answer in
                [
                    answer.map, answer.host, answer.client ?? "-",
                    answer.labels.isEmpty ? "-" : answer.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
                    answer.addresses.isEmpty ? "-" : answer.addresses.joined(separator: " "),
                ] + (picks ? [pickText(answer.pick)] : []) + [
                    answer.ttl.map(String.init) ?? "-", "\(answer.source.rawValue): \(answer.detail)",
                ]
            }
            lines.append("\(plan):")
            let header = ["MAP", "HOST", "CLIENT", "LABELS", "ADDRESSES"] + (picks ? ["PICK"] : []) + ["TTL", "SOURCE"]
            lines += AlignedColumns.lines(header: header, rows: rows)
        }
        if plans.isEmpty { lines.append("no scenario asks a domain map (every host is an IP address, or no strategy pins)") }
        return lines.joined(separator: "\n")
    }

    /// `127.0.0.2 (fastest connect, 0.3 ms)`, each address the SDK hands out; `-` for none.
    private static func pickText(_ pick: [MapAnswer.Picked]?) -> String {
        guard let pick, !pick.isEmpty else { return "-" }
        return pick.map { "\($0.address) (\($0.reason))" }.joined(separator: ", ")
    }

    /// A JSON array of the rows (keys sorted, every key present).
    public static func json(_ answers: [MapAnswer]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and lists only: encoding cannot fail.
        let data = (try? encoder.encode(answers)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
