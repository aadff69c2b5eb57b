import Foundation

/// Checks a Prometheus text exposition the way the tests need: `promtool check metrics` (the
/// format and its lint rules), and what that promtool (2.42) lets pass — a series written twice,
/// a family's samples split apart, a sample before its family's `# HELP` and `# TYPE`.
public enum Exposition {
    /// promtool's verdict on `text`: its exit status and what it printed (empty when all is well).
    public static func promtool(_ text: String) async throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("exposition-\(UUID().uuidString).prom")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // It reads the exposition from standard input only.
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "exec /usr/bin/promtool check metrics < \"$1\"", "sh", file.path],
                deadline: .seconds(60))
        }
        return (output.status, String(decoding: output.stdout + output.stderr, as: UTF8.self))
    }

    /// What is wrong with `text` beyond promtool's checks, one line per problem (none: empty).
    public static func problems(_ text: String) -> [String] {
        var problems: [String] = []
        var described: [String: Set<String>] = [:]  // family → "HELP", "TYPE"
        var finished = Set<String>()  // families whose samples have ended
        var current: String?
        var seen = Set<String>()
        // Split on the newline scalar: "\r\n" is one Character, and a label value may hold a "\r".
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        for (number, line) in lines.enumerated() {
            let where_ = "line \(number + 1)"
            if line.isEmpty { continue }
            if line.hasPrefix("# ") {
                let words = line.split(separator: " ", maxSplits: 3)
                guard words.count >= 3, words[1] == "HELP" || words[1] == "TYPE" else { continue }
                described[String(words[2]), default: []].insert(String(words[1]))
                continue
            }
            guard let sample = Sample(String(line)) else {
                problems.append("\(where_): not a sample: \(line)")
                continue
            }
            if !isName(sample.name, colon: true) { problems.append("\(where_): invalid metric name \(sample.name)") }
            for name in sample.labels.map(\.name) where !isName(name, colon: false) || name.hasPrefix("__") {
                problems.append("\(where_): invalid label name \(name)")
            }
            if Set(sample.labels.map(\.name)).count != sample.labels.count {
                problems.append("\(where_): a label given twice")
            }
            if described[sample.name] != ["HELP", "TYPE"] {
                problems.append("\(where_): \(sample.name) has no # HELP and # TYPE before its samples")
            }
            if current != sample.name {
                if let current { finished.insert(current) }
                if finished.contains(sample.name) { problems.append("\(where_): \(sample.name)'s samples are split apart") }
                current = sample.name
            }
            let identity = sample.name + "{" + sample.labels.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.value)" }
                .joined(separator: "\u{0}") + "}"
            if !seen.insert(identity).inserted { problems.append("\(where_): series written twice: \(line)") }
        }
        return problems
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*` for metric names, without `:` for label names.
    static func isName(_ name: String, colon: Bool) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                || (colon && $0 == ":")
        }
    }

    /// One sample line, its label values unescaped.
    public struct Sample: Equatable {
        public var name: String
        public var labels: [(name: String, value: String)]
        public var value: String

        public static func == (lhs: Sample, rhs: Sample) -> Bool {
            lhs.name == rhs.name && lhs.value == rhs.value && lhs.labels.map(\.name) == rhs.labels.map(\.name)
                && lhs.labels.map(\.value) == rhs.labels.map(\.value)
        }

        /// Reads `NAME{LABEL="VALUE",…} VALUE`; nil when the line is not one. Read scalar by
        /// scalar: a combining mark after a quote would make one `Character` of the two.
        public init?(_ line: String) {
            var rest = Substring(line).unicodeScalars
            func take() -> Unicode.Scalar? { rest.popFirst() }
            guard let end = rest.firstIndex(where: { $0 == "{" || $0 == " " }) else { return nil }
            name = String(rest[..<end])
            rest = rest[end...]
            labels = []
            if rest.first == "{" {
                _ = take()
                while rest.first != "}" {
                    if rest.first == "," { _ = take() }
                    guard let equals = rest.firstIndex(of: "=") else { return nil }
                    let label = String(rest[..<equals])
                    rest = rest[rest.index(after: equals)...]
                    guard take() == "\"" else { return nil }
                    var value = String.UnicodeScalarView()
                    while let scalar = take(), scalar != "\"" {
                        guard scalar == "\\" else {
                            value.append(scalar)
                            continue
                        }
                        switch take() {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: return nil
                        }
                    }
                    labels.append((label, String(value)))
                    guard !rest.isEmpty else { return nil }
                }
                _ = take()
            }
            guard take() == " " else { return nil }
            value = String(rest)
            guard !value.isEmpty, !value.contains(" ") else { return nil }
        }
    }

    /// Every sample of `text`, in order.
    public static func samples(_ text: String) -> [Sample] {
        text.unicodeScalars.split(separator: "\n").map { String($0) }.filter { !$0.hasPrefix("#") }.compactMap(Sample.init)
    }
}
