/// A constant label set on every series of an exposition (`runner serve --label NAME=VALUE`),
/// e.g. `vantage="sh-telecom"`, to tell apart the runners one Prometheus scrapes.
public struct MetricLabel: Sendable, Equatable {
    public let name: String
    public let value: String

    /// A label named `name`, which must be a valid Prometheus label name that no series of the
    /// runner sets itself.
    public init(name: String, value: String) throws(MetricLabelError) {
        let problem: String? =
            if !Self.isValidName(name) {
                "a label name starts with a letter or `_` and has only letters, digits and `_`"
            } else if name.hasPrefix("__") {
                "names starting with `__` are Prometheus' own"
            } else if MetricFamily.ownLabelNames.contains(name) {
                "the runner sets it itself"
            } else {
                nil
            }
        if let problem { throw MetricLabelError(label: "\(name)=\(value)", reason: "'\(name)' cannot be used: \(problem)") }
        self.name = name
        self.value = value
    }

    /// `NAME=VALUE` (the value may be empty or hold `=`).
    public init(parsing assignment: String) throws(MetricLabelError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw MetricLabelError(label: assignment, reason: "expected NAME=VALUE")
        }
        try self.init(
            name: String(assignment[..<equals]), value: String(assignment[assignment.index(after: equals)...]))
    }

    /// Each of `assignments` parsed; a name given twice is an error (a series has one value per label).
    public static func parse(_ assignments: [String]) throws(MetricLabelError) -> [MetricLabel] {
        var labels: [MetricLabel] = []
        for assignment in assignments {
            let label = try MetricLabel(parsing: assignment)
            if labels.contains(where: { $0.name == label.name }) {
                throw MetricLabelError(label: assignment, reason: "'\(label.name)' is given twice")
            }
            labels.append(label)
        }
        return labels
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`, the exposition format's label names.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
