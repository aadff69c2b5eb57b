/// A part of an existing YAML file, as a `YAMLValue` to write into another (a plan's domain map,
/// app or client population copied into a generated plan).
///
/// Read through `YAMLParser`, as plans are: aliases come expanded and merge keys (`<<`) merged.
/// Scalars keep their text and how they read: a plain one becomes `.plain` (a number stays a
/// number), a quoted, literal or folded one `.string` (as does a plain one tagged `!!str` or `!`;
/// other tags are dropped). Sequences of scalars only become `.flow` (`[a, b]`), everything
/// else `.block`: the source's own layout is not kept, nor its comments.
public enum YAMLExcerpt {
    /// The value at `keyPath` (mapping keys from the root, e.g. `["domains", "ali"]`) in the YAML
    /// file at `path`; nil when the path is absent. A file that cannot be read as YAML throws
    /// the plan error (`FILE:LINE:COL: error: …`) loading it as a plan would.
    public static func value(at keyPath: [String], inFile path: String) throws(PlanError) -> YAMLValue? {
        let source = try SourceText.load(path: path)
        try source.checkText()
        return try value(at: keyPath, in: source)
    }

    /// `value(at:inFile:)` for a file already read.
    static func value(at keyPath: [String], in source: SourceText) throws(PlanError) -> YAMLValue? {
        let document = try YAMLParser(source: source).parse()
        // Its nodes do not keep it alive.
        defer { withExtendedLifetime(document) {} }
        // A duplicate key or a bad merge: the file would not load as a plan either.
        if var error = document.errors.first {
            if let location = error.location {
                error.sourceLine = source.snippetLine(location.line, lines: SourceLines(source.bytes))
            }
            throw error
        }
        guard var node = document.root else { return nil }
        for key in keyPath {
            guard case .mapping(let pairs) = node.content,
                  let pair = pairs.first(where: { isScalar($0.key) && $0.key.scalarText == key })
            else { return nil }
            node = pair.value
        }
        return try convert(node, file: source.file)
    }

    private static func convert(_ node: YAMLNode, file: String) throws(PlanError) -> YAMLValue {
        switch node.content {
        case .scalar(let text, let style):
            let forcedString = node.tag?.forcesString ?? false
            return style == .plain && !forcedString ? .plain(text) : .string(text)
        case .sequence(let items):
            var converted: [YAMLItem] = []
            for item in items { converted.append(YAMLItem(try convert(item, file: file))) }
            let onlyScalars = items.allSatisfy(isScalar)
            return .sequence(converted, style: onlyScalars ? .flow : .block)
        case .mapping(let pairs):
            var entries: [YAMLEntry] = []
            for pair in pairs {
                // YAMLEntry keys are text; a plan has no other kind.
                guard isScalar(pair.key) else {
                    let mark = pair.key.mark
                    throw PlanError(
                        location: SourceLocation(file: file, line: mark.line, column: mark.column),
                        message: "cannot copy a mapping whose key is \(pair.key.kindDescription); keys must be text")
                }
                entries.append(YAMLEntry(pair.key.scalarText, try convert(pair.value, file: file)))
            }
            return .mapping(entries)
        }
    }

    private static func isScalar(_ node: YAMLNode) -> Bool {
        if case .scalar = node.content { return true }
        return false
    }
}
