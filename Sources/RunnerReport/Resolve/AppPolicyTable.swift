import Foundation
import RunnerResults

/// `runner app show`'s output: each app's rules per host, strategy and address, as a table per
/// plan or as JSON (plan-format.md's keys).
public enum AppPolicyTable {
    /// A table per plan, its columns aligned.
    public static func text(_ rows: [AppPolicyRow]) -> String {
        var lines: [String] = []
        var plans: [String] = []
        for row in rows where !plans.contains(row.plan) { plans.append(row.plan) }
        for plan in plans {
            let cells = rows.filter { $0.plan == plan }.map { row -> [String] in
                let rules = row.policy.policy
                let pins: String
                if rules.pins.isEmpty && rules.sha1Pins.isEmpty {
                    pins = "none"
                } else {
                    let count = rules.pins.count + rules.sha1Pins.count
                    pins = "\(count) " + (rules.pinsEnforced ? "enforced" : "off (\(rules.whyNotEnforced?.rawValue ?? "no-pins"))")
                        + (rules.pinsExpire.map { " until \($0)" } ?? "")
                }
                return [
                    row.policy.app, rules.platform.rawValue, row.host, row.strategy.rawValue, row.address ?? "-",
                    row.policy.keyedOn.rawValue, rules.platform == .okhttp ? "-" : (rules.cleartextPermitted ? "yes" : "no"),
                    rules.platform == .okhttp ? "-" : rules.anchors.joined(separator: ","), pins, rules.tlsMinimum ?? "-",
                    rules.source.map { "\($0)" } ?? "default",
                ]
            }
            lines.append("\(plan):")
            lines += AlignedColumns.lines(
                header: ["APP", "PLATFORM", "HOST", "STRATEGY", "ADDRESS", "KEYED ON", "CLEARTEXT", "ANCHORS", "PINS", "TLS MIN", "SOURCE"],
                rows: cells)
        }
        if plans.isEmpty { lines.append("no scenario is checked as an app (app:), or none matches --app, --host and --strategy") }
        return lines.joined(separator: "\n")
    }

    /// A JSON array of the rows (keys sorted, every key present).
    public static func json(_ rows: [AppPolicyRow]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers, booleans and lists only: encoding cannot fail.
        let data = (try? encoder.encode(rows)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
