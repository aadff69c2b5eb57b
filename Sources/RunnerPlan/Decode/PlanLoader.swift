/// Loads and validates plan files.
public enum PlanLoader {
    /// Reads, parses and validates the plan at `path`.
    ///
    /// - Parameters:
    ///   - variables: `--var NAME=VALUE` from the command line; they override `vars:`.
    ///   - environment: what `${env:…}` and `${secret:…}` read.
    /// - Throws: `PlanErrors` with every error found, each with file:line:col.
    public static func load(
        path: String, variables: [String: String] = [:], environment: [String: String]
    ) throws(PlanErrors) -> Plan {
        try load(path: path, variables: variables, environment: environment, parallelism: .automatic)
    }

    /// `load(path:variables:environment:)` with the scenario list read by `parallelism` cores.
    /// The plan and the errors are the same whatever it says: only the time differs.
    static func load(
        path: String, variables: [String: String] = [:], environment: [String: String],
        parallelism: PlanParallelism
    ) throws(PlanErrors) -> Plan {
        let source: SourceText
        let document: YAMLDocument
        do {
            source = try SourceText.load(path: path)
            try source.checkText()
        } catch {
            throw PlanErrors([error])
        }
        if let plan = ParallelPlanLoad.load(
            source, variables: variables, environment: environment, parallelism: parallelism) {
            return plan
        }
        do {
            // Keys are interned first, so the decoder recognises them by text index.
            document = try YAMLParser(source: source, knownTexts: PlanKey.texts).parse()
        } catch {
            throw PlanErrors(finish([error], source: source))
        }
        guard let root = document.root, !isEmpty(root) else {
            throw PlanErrors([PlanError(location: SourceLocation(file: path, line: 1, column: 1), message: "plan is empty")])
        }
        let decoder = PlanDecoder(file: path, environment: environment)
        let plan = decoder.decodePlan(root, variables: variables)
        let errors = document.errors + decoder.errors
        guard errors.isEmpty, let plan else {
            throw PlanErrors(finish(errors, source: source))
        }
        return plan
    }

    /// A stream whose only document is nothing (`---` alone, `~`).
    private static func isEmpty(_ root: YAMLNode) -> Bool {
        guard case .scalar(let value, .plain) = root.content, root.tag == nil else { return false }
        return value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL"
    }

    /// Errors in file order, each with its source line for the caret snippet.
    private static func finish(_ errors: [PlanError], source: SourceText) -> [PlanError] {
        guard !errors.isEmpty else {
            // Decoding failed without saying why: never return an empty error list.
            return [PlanError(location: nil, message: "plan '\(source.file)' could not be decoded")]
        }
        let ordered = errors.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?):
                if left.line != right.line { return left.line < right.line }
                if left.column != right.column { return left.column < right.column }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
        let lines = SourceLines(source.bytes)
        return ordered.map { error in
            var error = error
            if let location = error.location, error.sourceLine == nil {
                error.sourceLine = source.snippetLine(location.line, lines: lines)
            }
            return error
        }
    }
}
