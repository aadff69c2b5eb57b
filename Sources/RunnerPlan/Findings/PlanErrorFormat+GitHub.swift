extension PlanErrorFormat {
    /// `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::MESSAGE` (`::notice` for a
    /// note), as GitHub Actions reads workflow commands: each becomes an annotation on the line.
    /// An annotation spanning lines has no columns (GitHub takes columns on one line only).
    static func githubCommand(_ finding: PlanFinding) -> String {
        let command = switch finding.error.severity {
        case .error: "error"
        case .note: "notice"
        }
        var properties = [("file", finding.file)]
        if let location = finding.error.location {
            properties.append(("line", String(location.line)))
            let end = finding.error.end
            if let end, end.line != location.line {
                properties.append(("endLine", String(end.line)))
            } else {
                properties.append(("col", String(location.column)))
                if let end {
                    properties.append(("endLine", String(end.line)))
                    properties.append(("endColumn", String(end.column)))
                }
            }
        }
        properties.append(("title", finding.error.keyPath.map { "runner: \($0)" } ?? "runner"))
        let written = properties.map { "\($0.0)=\(githubProperty($0.1))" }.joined(separator: ",")
        return "::\(command) \(written)::\(githubData(finding.error.message))"
    }

    /// A command's message: `%`, CR and LF escaped (GitHub's toolkit, `escapeData`).
    static func githubData(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A property's value: as a message, and `:` and `,` too (`escapeProperty`).
    static func githubProperty(_ text: String) -> String {
        var escaped = ""
        for character in githubData(text).unicodeScalars {
            switch character {
            case ":": escaped += "%3A"
            case ",": escaped += "%2C"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
