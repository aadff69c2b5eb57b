extension PlanErrorFormat {
    /// One issue of a GitLab Code Quality report: the fields GitLab documents as required.
    struct GitLabIssue: Encodable {
        struct Location: Encodable {
            struct Lines: Encodable {
                var begin: Int
            }

            var path: String
            var lines: Lines
        }

        var description: String
        var checkName: String
        var fingerprint: String
        var severity: String
        var location: Location

        enum CodingKeys: String, CodingKey {
            case description
            case checkName = "check_name"
            case fingerprint, severity, location
        }
    }

    /// The report GitLab's `artifacts: reports: codequality` reads: errors are `major` (what
    /// ESLint's and yamllint's GitLab formatters give an error), notes `info`. A fingerprint is
    /// the SHA-256 of the file, the key path (the line when there is none), the severity, the
    /// message and how many alike came before: the same finding keeps it when lines move, so a
    /// merge request shows only what it changed.
    static func gitlabReport(_ findings: [PlanFinding]) throws(Failure) -> String {
        var seen: [String: Int] = [:]
        var issues: [GitLabIssue] = []
        for finding in findings {
            let path = finding.file.hasPrefix("./") ? String(finding.file.dropFirst(2)) : finding.file
            let place = finding.error.keyPath ?? "line \(finding.error.location?.line ?? 1)"
            let identity = [path, place, finding.error.severity.rawValue, finding.error.message].joined(separator: "\n")
            let occurrence = seen[identity, default: 0]
            seen[identity] = occurrence + 1
            let severity = switch finding.error.severity {
            case .error: "major"
            case .note: "info"
            }
            issues.append(GitLabIssue(
                description: finding.error.message, checkName: "runner-plan-\(finding.error.severity.rawValue)",
                fingerprint: try Fingerprint.sha256Hex(identity + "\n\(occurrence)"), severity: severity,
                location: .init(path: path, lines: .init(begin: finding.error.location?.line ?? 1))))
        }
        return try encoded(issues)
    }
}
