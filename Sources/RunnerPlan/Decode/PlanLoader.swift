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

    /// Reads, parses and validates the plan at `path` as `load` does, and says what it could not
    /// check and which environment variables it reads.
    ///
    /// - Parameter unsetEnvironment: `.unknown` checks a plan without the variables it reads
    ///   (`runner check --no-env`): what their values decide becomes notes, not errors.
    public static func check(
        path: String, variables: [String: String] = [:], environment: [String: String],
        unsetEnvironment: UnsetEnvironment
    ) throws(PlanErrors) -> PlanCheck {
        // One core when values may be unknown: the notes are the one-core decoder's (pieces
        // read in parallel only ever return a plan with nothing to say).
        let parallelism: PlanParallelism = unsetEnvironment == .error ? .automatic : .oneCore
        let (plan, decoder) = try decode(
            path: path, variables: variables, environment: environment, unsetEnvironment: unsetEnvironment,
            parallelism: parallelism)
        return PlanCheck(
            plan: plan, notes: decoder?.notes ?? [], environment: decoder?.environmentUses ?? [],
            scenarioCount: plan.scenarios.count + (decoder?.scenariosNotBuilt ?? 0))
    }

    /// `load(path:variables:environment:)` with the scenario list read by `parallelism` cores.
    /// The plan and the errors are the same whatever it says: only the time differs.
    static func load(
        path: String, variables: [String: String] = [:], environment: [String: String],
        parallelism: PlanParallelism
    ) throws(PlanErrors) -> Plan {
        try decode(path: path, variables: variables, environment: environment, unsetEnvironment: .error, parallelism: parallelism).plan
    }

    /// The plan, and the one-core decoder that read it (nil when pieces were read in parallel).
    private static func decode(
        path: String, variables: [String: String], environment: [String: String], unsetEnvironment: UnsetEnvironment,
        parallelism: PlanParallelism
    ) throws(PlanErrors) -> (plan: Plan, decoder: PlanDecoder?) {
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
            return (plan, nil)
        }
        do {
            // Keys are interned first, so the decoder recognises them by text index.
            document = try YAMLParser(source: source, knownTexts: PlanKey.texts).parse()
        } catch {
            throw PlanErrors(finish([error], source: source))
        }
        // Its nodes (the root, and what the decoder reads) do not keep it alive.
        defer { withExtendedLifetime(document) {} }
        guard let root = document.root, !isEmpty(root) else {
            throw PlanErrors([PlanError(location: SourceLocation(file: path, line: 1, column: 1), message: "plan is empty")])
        }
        let decoder = PlanDecoder(file: path, environment: environment, unsetEnvironment: unsetEnvironment)
        let plan = decoder.decodePlan(root, variables: variables)
        let errors = document.errors + decoder.errors
        guard errors.isEmpty, let plan else {
            // The notes too (`UnsetEnvironment.unknown`): what was not checked beside what is wrong.
            throw PlanErrors(finish(errors + decoder.notes, source: source, root: root))
        }
        decoder.sortNotes { finish($0, source: source, root: root) }
        return (plan, decoder)
    }

    /// A stream whose only document is nothing (`---` alone, `~`).
    private static func isEmpty(_ root: YAMLNode) -> Bool {
        guard case .scalar(let value, .plain) = root.content, root.tag == nil else { return false }
        return value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL"
    }

    /// Errors in file order, each with its source line for the caret snippet, where its token
    /// ends, and (given the document's root) its key path.
    private static func finish(_ errors: [PlanError], source: SourceText, root: YAMLNode? = nil) -> [PlanError] {
        guard !errors.isEmpty else {
            // Decoding failed without saying why: never return an empty error list.
            return [PlanError(location: nil, message: "plan '\(source.file)' could not be decoded")]
        }
        // The plan's own errors in file order, then those of the files it names (apps' trust
        // files), each file's in order.
        let ordered = errors.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?):
                if left.file != right.file {
                    if left.file == source.file || right.file == source.file { return left.file == source.file }
                    return left.file < right.file
                }
                if left.line != right.line { return left.line < right.line }
                if left.column != right.column { return left.column < right.column }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
        let lines = SourceLines(source.bytes)
        let marks = Set(ordered.compactMap { $0.location.map { YAMLMark(line: $0.line, column: $0.column) } })
        let keyPaths = root.map { KeyPaths.find(marks, from: $0) } ?? [:]
        return ordered.map { error in
            var error = error
            if let location = error.location, location.file == source.file {
                if error.sourceLine == nil { error.sourceLine = source.snippetLine(location.line, lines: lines) }
                error.end = source.tokenEnd(line: location.line, column: location.column, lines: lines)
                error.keyPath = keyPaths[YAMLMark(line: location.line, column: location.column)]
            }
            return error
        }
    }
}
