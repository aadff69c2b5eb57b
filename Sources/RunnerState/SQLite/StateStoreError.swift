/// Why the state file cannot be used, with its path: every SQLite failure and every file that is
/// not a runner state database comes here, rendered for the command line (exit 2).
public struct StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "state file '\(path)': \(reason)" }
}
