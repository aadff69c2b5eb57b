/// How a command writes plan errors and notes (`--format`): for a person at a terminal, or for
/// the tools that show a finding on the line it is about (a CI system's review page, an editor).
public enum PlanErrorFormat: String, CaseIterable, Sendable {
    /// `FILE:LINE:COL: error: MESSAGE`, the source line and a caret: what a terminal shows.
    case text
    /// A JSON array of `{file, line, column, end_line, end_column, severity, message, key}`.
    case json
    /// GitHub Actions workflow commands, `::error file=…,line=…::MESSAGE`: annotations.
    case github
    /// A GitLab Code Quality report (Code Climate's issues, as GitLab reads them).
    case gitlab

    /// Whether the output is one document that standard output must hold alone (the lines a
    /// command prints besides go to standard error).
    public var isDocument: Bool {
        switch self {
        case .text, .github: false
        case .json, .gitlab: true
        }
    }

    /// The findings of every plan a command read, in the format: one document for `json` and
    /// `gitlab` (an empty list when there are none), else a line (or a snippet) each.
    public func render(_ findings: [PlanFinding]) throws(Failure) -> String {
        switch self {
        case .text: findings.map(\.error.rendered).joined(separator: "\n")
        case .json: try Self.json(findings)
        case .github: findings.map(Self.githubCommand).joined(separator: "\n")
        case .gitlab: try Self.gitlabReport(findings)
        }
    }

    /// The findings could not be written in the format.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// OpenSSL could not compute a SHA-256 (a build without it): no GitLab fingerprints.
        case fingerprintUnavailable
        /// JSONEncoder refused the findings.
        case encoding(String)

        public var description: String {
            switch self {
            case .fingerprintUnavailable:
                "cannot fingerprint the findings for --format gitlab: OpenSSL's SHA-256 is unavailable"
            case .encoding(let reason):
                "cannot write the findings as JSON: \(reason)"
            }
        }
    }
}
