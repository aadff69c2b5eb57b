/// A constant label that cannot be set.
public struct MetricLabelError: Error, Equatable, CustomStringConvertible {
    /// The label as given, e.g. `plan=x`.
    public var label: String
    /// Why, e.g. `'plan' cannot be used: the runner sets it itself`.
    public var reason: String

    public init(label: String, reason: String) {
        self.label = label
        self.reason = reason
    }

    public var description: String { "invalid label '\(label)': \(reason)" }
}
