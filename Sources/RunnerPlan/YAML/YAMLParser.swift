internal import CYAML

/// Reads one YAML document with libyaml's event API into a `YAMLNode` tree.
///
/// Single use: libyaml binds a parser to one input. Aliases are expanded under a node
/// budget, nesting is capped, and every libyaml error becomes a `PlanError` in `libyamlError`.
final class YAMLParser {
    /// Deeper nesting is refused: no plan needs it and the decoder recurses over it.
    static let maximumDepth = 128
    /// Aliases may add this many nodes, or four times the nodes written when that is more.
    static let minimumAliasBudget = 1_000_000

    private let source: SourceText
    private let knownTexts: [String]
    private let window: ParseWindow
    private let itemByItem: Bool
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let initialized: Bool
    /// The event being read, one for the parser's life: libyaml clears it before filling it in,
    /// so there is no event to make and zero for each of the millions a large plan holds.
    private let event: UnsafeMutablePointer<yaml_event_t>

    /// - Parameters:
    ///   - knownTexts: texts the caller will look for; they get the text indices 1, 2, 3… in
    ///     this order (see `YAMLMapping.keyTextIndex`).
    ///   - window: the part of `source` to read, and where its lines stand in the plan file.
    ///   - itemByItem: the input is a block list read with `parseItems`, each item in a tree of
    ///     its own.
    init(source: SourceText, knownTexts: [String] = [], window: ParseWindow = ParseWindow(), itemByItem: Bool = false) {
        self.source = source
        self.knownTexts = knownTexts
        self.window = window
        self.itemByItem = itemByItem
        parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        initialized = yaml_parser_initialize(parser) == 1
        event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        event.deallocate()
    }

    /// Parses the whole input; the root is nil when the stream holds no document.
    func parse() throws(PlanError) -> YAMLDocument {
        try parse { _ in true }
    }

    /// Parses a block list (a parser made `itemByItem`), handing each item to `each` as soon as
    /// it ends, in a tree of its own that the next item reuses: a piece of a large plan is never
    /// one tree, and what is decoded was parsed a moment ago. Stops early, with the items so
    /// far, when `each` returns false, when a key is written twice, or at an alias (the caller
    /// then reads the plan whole). The document's root is the list, with no items in it.
    func parseItems(_ each: (YAMLNode) -> Bool) throws(PlanError) -> YAMLDocument {
        try parse(each)
    }

    private func parse(_ each: (YAMLNode) -> Bool) throws(PlanError) -> YAMLDocument {
        guard initialized else {
            throw PlanError(location: nil, message: "cannot parse plan '\(source.file)': libyaml could not start")
        }
        let outcome: Result<YAMLDocument, PlanError> = source.bytes.withUnsafeBufferPointer { whole in
            let buffer = UnsafeBufferPointer(rebasing: whole[window.bytes ?? whole.indices])
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .success(YAMLDocument(root: nil, errors: []))
            }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, base, buffer.count)
            var builder = TreeBuilder(
                file: source.file, expectedBytes: itemByItem ? 0 : buffer.count, knownTexts: knownTexts,
                openAround: window.depth, itemByItem: itemByItem)
            do throws(PlanError) {
                while try !nextEvent(into: &builder) {
                    guard let item = builder.finishedItem else { continue }
                    // The item's tree is a temporary, let go before its storage is cleared; it is
                    // kept alive while `each` reads the item (nodes do not retain it).
                    let readOn = builder.isClean && {
                        let tree = builder.itemTree()
                        return withExtendedLifetime(tree) { each(tree.node(item)) }
                    }()
                    builder.clearItem()
                    guard readOn else { break }
                }
                return .success(builder.document())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: - libyaml events

    /// Pulls the next event from libyaml and feeds it to `builder`; true once the stream has ended.
    ///
    /// The builder sees the event while libyaml still owns it: a scalar's bytes are read in
    /// place, with no String made for each of the millions of scalars a large plan holds.
    private func nextEvent(into builder: inout TreeBuilder) throws(PlanError) -> Bool {
        guard yaml_parser_parse(parser, event) == 1 else { throw libyamlError() }
        defer { yaml_event_delete(event) }
        let mark = window.mark(event.pointee.start_mark)
        switch event.pointee.type {
        case YAML_STREAM_END_EVENT, YAML_NO_EVENT:
            // libyaml only returns YAML_NO_EVENT after the stream has ended.
            return true
        case YAML_DOCUMENT_START_EVENT:
            try builder.startDocument(at: mark)
        case YAML_ALIAS_EVENT:
            try builder.alias(Self.text(event.pointee.data.alias.anchor) ?? "", at: mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.pointee.data.scalar
            let style: YAMLScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            let tag = try tag(scalar.tag, at: mark)
            let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.value == nil ? 0 : Int(scalar.length))
            builder.scalar(bytes, style: style, tag: tag, anchor: Self.text(scalar.anchor), at: mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.pointee.data.sequence_start
            try builder.startCollection(
                isMapping: false, isBlock: start.style != YAML_FLOW_SEQUENCE_STYLE, tag: try tag(start.tag, at: mark),
                anchor: Self.text(start.anchor), at: mark)
        case YAML_MAPPING_START_EVENT:
            let start = event.pointee.data.mapping_start
            try builder.startCollection(
                isMapping: true, isBlock: start.style != YAML_FLOW_MAPPING_STYLE, tag: try tag(start.tag, at: mark),
                anchor: Self.text(start.anchor), at: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            builder.endCollection()
        default:
            // Stream start and document end change nothing in the tree.
            break
        }
        return false
    }

    /// Inlined for the untagged nodes that nearly all are; a written tag is read apart.
    @inline(__always)
    private func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at mark: YAMLMark) throws(PlanError) -> YAMLTag? {
        guard let pointer else { return nil }
        return try writtenTag(pointer, at: mark)
    }

    private func writtenTag(_ pointer: UnsafeMutablePointer<yaml_char_t>, at mark: YAMLMark) throws(PlanError) -> YAMLTag {
        let written = String(cString: pointer)
        guard let tag = YAMLTag(resolved: written) else {
            throw PlanError(
                location: SourceLocation(file: source.file, line: mark.line, column: mark.column),
                message: "unsupported YAML tag '\(written)'; plans use plain YAML values")
        }
        return tag
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    // MARK: - The one place libyaml errors become plan errors

    private func libyamlError() -> PlanError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = state.context.map { String(cString: $0) }
        let problemMark = window.mark(state.problem_mark)
        let contextMark = window.mark(state.context_mark)

        switch state.error {
        case YAML_MEMORY_ERROR:
            return PlanError(location: nil, message: "cannot parse plan '\(source.file)': out of memory")
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset, not a mark.
            let location = source.location(ofByte: (window.bytes?.lowerBound ?? 0) + Int(state.problem_offset))
            if problem == "control characters are not allowed" {
                let hex = String(state.problem_value, radix: 16, uppercase: true)
                let code = hex.count < 2 ? "0" + hex : hex
                return PlanError(
                    location: location,
                    message: "plan contains a control character (0x\(code)); this looks like a binary file, not YAML text")
            }
            return PlanError(location: location, message: "invalid YAML: \(problem)")
        default:
            break
        }

        if source.byte(at: problemMark) == UInt8(ascii: "\t") {
            return PlanError(
                location: location(problemMark),
                message: "tab character where YAML expects spaces; indent with spaces, not tabs")
        }
        if let context, context.contains("quoted scalar"), problem.contains("end of stream") {
            return PlanError(
                location: location(contextMark),
                message: "unterminated quoted string: no closing quote before the end of the file")
        }
        var message = "invalid YAML: \(problem)"
        if let context {
            message += " (\(context) at \(contextMark.text))"
        }
        return PlanError(location: location(problemMark), message: message)
    }

    private func location(_ mark: YAMLMark) -> SourceLocation {
        SourceLocation(file: source.file, line: mark.line, column: mark.column)
    }
}

extension ParseWindow {
    /// A libyaml mark as a position in the plan file (inlined: asked for every event).
    @inline(__always)
    fileprivate func mark(_ mark: yaml_mark_t) -> YAMLMark {
        fileMark(line: Int(mark.line), column: Int(mark.column))
    }
}

/// Builds the node tree from events without recursion: an explicit stack of open collections.
///
/// Children of every open collection wait on one shared stack; a collection moves its slice
/// into the tree when it ends.
struct TreeBuilder {
    let file: String
    private var records: TreeBuffer<YAMLTree.Record>
    private var texts: ScalarTexts
    private var children: TreeBuffer<Int32>
    private var root: Int32?
    /// Errors that do not stop parsing (duplicate keys).
    private var errors: [PlanError] = []

    /// The innermost open collection (when `depth > 0`), kept apart from `parents` because
    /// nearly every event updates it.
    private var current = Frame(isMapping: false, mark: YAMLMark(line: 0, column: 0), tag: nil, hasAnchor: false, start: 0)
    /// The collections enclosing `current`, outermost first.
    private var parents: [Frame] = []
    /// Open collections: `current` and its `parents` (0 while the root is still to come).
    private var depth = 0
    /// Children of the open collections (for a mapping: key, value, key, value…).
    private var open = TreeBuffer<Int32>(capacity: 256)
    /// Anchored nodes by name, with their size once aliases are expanded (what an alias to
    /// them adds to the alias budget).
    private var anchors: [String: (index: Int32, size: Int)] = [:]
    /// Anchors of the open collections that have one, innermost last.
    private var openAnchors: [String] = []
    /// Scalar keys by text for the open mappings that grew large, by depth.
    private var keyIndexes: [Int: [Int32: YAMLMark]] = [:]
    private var documents = 0
    private var realNodes = 0
    private var aliasNodes = 0
    private var aliases = 0
    /// Collections open around the parsed bytes in the plan (they count towards the depth limit).
    private let openAround: Int
    private var rootIsBlock = false
    /// Items of a root list are handed out one at a time (`YAMLParser.parseItems`), not kept.
    private let itemByItem: Bool
    /// The item of the root list that has just ended (`itemByItem`), until `clearItem`.
    private(set) var finishedItem: Int32?

    init(file: String, expectedBytes: Int, knownTexts: [String], openAround: Int = 0, itemByItem: Bool = false) {
        self.file = file
        self.openAround = openAround
        self.itemByItem = itemByItem
        texts = ScalarTexts(knownTexts: knownTexts)
        // Plans hold about a node per 10 bytes. Reserving more than that costs nothing until
        // it is touched, while regrowing copies hundreds of megabytes for a large plan.
        records = TreeBuffer(capacity: expectedBytes / 4)
        children = TreeBuffer(capacity: expectedBytes / 4)
    }

    /// The finished document (call once the stream has ended).
    func document() -> YAMLDocument {
        let tree = YAMLTree(
            records: records, scalars: texts.strings, scalarsHoldingReference: texts.holdsReference, children: children,
            owning: true)
        return YAMLDocument(root: root.map(tree.node), errors: errors, rootIsBlock: rootIsBlock, aliases: aliases, tree: tree)
    }

    /// The nodes since the last `clearItem`: `finishedItem` and what it holds (`itemByItem`).
    /// Read only while this builder lives and adds nothing (its memory is not kept alive).
    func itemTree() -> YAMLTree {
        YAMLTree(
            records: records, scalars: texts.strings, scalarsHoldingReference: texts.holdsReference, children: children,
            owning: false)
    }

    /// Nothing found so far that sends a list read item by item back to the whole plan's path.
    var isClean: Bool { errors.isEmpty && aliases == 0 }

    /// Forgets the finished item's nodes, keeping the storage for the next item. Its anchors go
    /// too: an alias to them from a later item is then undefined, and the plan read whole.
    mutating func clearItem() {
        finishedItem = nil
        records.removeAll()
        children.removeAll()
        anchors.removeAll(keepingCapacity: true)
    }

    /// Plain data (the anchor lives in `openAnchors`): frames are copied at every nesting level,
    /// and copying a struct that holds a reference costs far more.
    private struct Frame {
        var isMapping: Bool
        var mark: YAMLMark
        var tag: YAMLTag?
        var hasAnchor: Bool
        /// Where this collection's children start in `open`.
        var start: Int
        var pendingKey: Int32?
        var pendingKeySize = 0
        var dropValue = false
        /// Whether `keyIndexes` holds this mapping's keys (once it grows large; small ones are scanned).
        var hasKeyIndex = false
        var hasMergeKey = false
        var size = 1
    }

    // MARK: Events (what libyaml reports, with no C types left)

    mutating func startDocument(at mark: YAMLMark) throws(PlanError) {
        documents += 1
        if documents > 1 {
            throw error(at: mark, "a plan file holds one YAML document; '---' here starts a second one")
        }
    }

    mutating func alias(_ name: String, at mark: YAMLMark) throws(PlanError) {
        guard let target = anchors[name] else {
            if openAnchors.contains(name) {
                throw error(at: mark, "alias '*\(name)' refers to a node that contains it")
            }
            throw error(at: mark, "undefined alias '*\(name)'")
        }
        // The same node again (its children are shared), but located at the alias.
        var record = records[Int(target.index)]
        aliases += 1
        aliasNodes += target.size
        let budget = max(YAMLParser.minimumAliasBudget, 4 * realNodes)
        if aliasNodes > budget {
            throw error(at: mark, "aliases expand to more than \(budget) nodes; refusing what looks like an alias bomb")
        }
        record.mark = mark
        add(append(record), size: target.size)
    }

    /// A scalar; its UTF-8 `bytes` are borrowed from libyaml and only read during the call.
    mutating func scalar(
        _ bytes: UnsafeBufferPointer<UInt8>, style: YAMLScalarStyle, tag: YAMLTag?, anchor: String?, at mark: YAMLMark
    ) {
        realNodes += 1
        let index = append(YAMLTree.Record(
            kind: .scalar, style: style, tag: tag, mark: mark, first: texts.index(of: bytes), count: 0))
        if let anchor { anchors[anchor] = (index, 1) }
        add(index, size: 1)
    }

    mutating func startCollection(
        isMapping: Bool, isBlock: Bool, tag: YAMLTag?, anchor: String?, at mark: YAMLMark
    ) throws(PlanError) {
        if openAround + depth >= YAMLParser.maximumDepth {
            throw error(at: mark, "nesting deeper than \(YAMLParser.maximumDepth) levels")
        }
        if depth == 0 { rootIsBlock = isBlock }
        realNodes += 1
        if depth > 0 { parents.append(current) }
        current = Frame(isMapping: isMapping, mark: mark, tag: tag, hasAnchor: anchor != nil, start: open.count)
        if let anchor { openAnchors.append(anchor) }
        depth += 1
    }

    mutating func endCollection() {
        guard depth > 0 else { return }
        let frame = current
        if frame.hasKeyIndex { keyIndexes[depth] = nil }
        depth -= 1
        if depth > 0 { current = parents.removeLast() }
        let first = children.count
        if frame.isMapping, frame.hasMergeKey {
            for index in merged(Array(open.elements[frame.start...])) { children.append(index) }
        } else {
            // Element by element: a collection has a few children.
            for position in frame.start..<open.count { children.append(open[position]) }
        }
        open.removeLast(open.count - frame.start)
        let index = append(YAMLTree.Record(
            kind: frame.isMapping ? .mapping : .sequence, style: .plain, tag: frame.tag, mark: frame.mark,
            first: Int32(first), count: Int32(children.count - first)))
        if frame.hasAnchor { anchors[openAnchors.removeLast()] = (index, frame.size) }
        add(index, size: frame.size)
    }

    // MARK: Building

    @inline(__always)
    private mutating func append(_ record: YAMLTree.Record) -> Int32 {
        records.append(record)
        return Int32(records.count - 1)
    }

    /// A scalar key's identity (equal for keys that are equal Strings); nil for a collection.
    /// Only asked of nodes already placed as keys, whose identity `add` has worked out.
    private func scalarKey(_ index: Int32) -> Int32? {
        let record = records[Int(index)]
        return record.kind == .scalar ? texts.knownKeyIdentity(of: record.first) : nil
    }

    /// Places a finished node (of `size` nodes, aliases expanded) in the open collection.
    private mutating func add(_ index: Int32, size: Int) {
        guard depth > 0 else {
            root = index
            return
        }
        if !current.isMapping {
            current.size += size
            if itemByItem, depth == 1 {
                finishedItem = index
                return
            }
            open.append(index)
            return
        }
        if let key = current.pendingKey {
            current.pendingKey = nil
            if current.dropValue {
                current.dropValue = false
                return
            }
            current.size += current.pendingKeySize + size
            open.append(key)
            open.append(index)
            if !current.hasKeyIndex, open.count - current.start == 32 {
                var keyIndex: [Int32: YAMLMark] = [:]
                for position in stride(from: current.start, to: open.count, by: 2) {
                    if let text = scalarKey(open[position]), keyIndex[text] == nil {
                        keyIndex[text] = records[Int(open[position])].mark
                    }
                }
                keyIndexes[depth] = keyIndex
                current.hasKeyIndex = true
            }
            return
        }
        // A key: duplicates are reported here, at the second one, and its value dropped.
        let record = records[Int(index)]
        if record.kind == .scalar {
            let text = texts.keyIdentity(of: record.first)
            var first: YAMLMark?
            if current.hasKeyIndex {
                first = keyIndexes[depth]?[text]
                if first == nil { keyIndexes[depth]?[text] = record.mark }
            } else {
                for position in stride(from: current.start, to: open.count, by: 2) where scalarKey(open[position]) == text {
                    first = records[Int(open[position])].mark
                    break
                }
            }
            if let first {
                errors.append(error(at: record.mark, "duplicate key '\(texts.strings[Int(record.first)])' (first at \(first.text))"))
                current.dropValue = true
            }
            if isMergeKey(record) { current.hasMergeKey = true }
        }
        current.pendingKey = index
        current.pendingKeySize = size
    }

    /// Whether a node is a merge key: `<<` written plain and untagged.
    private func isMergeKey(_ record: YAMLTree.Record) -> Bool {
        record.kind == .scalar && record.style == .plain && record.tag == nil
            && texts.knownKeyIdentity(of: record.first) == ScalarTexts.mergeKey
    }

    /// Applies YAML merge keys (`<<: *defaults`) to a mapping's children: keys written in the
    /// mapping win, then earlier merged mappings over later ones.
    private mutating func merged(_ entries: [Int32]) -> [Int32] {
        var present = Set<Int32>()
        for position in stride(from: entries.startIndex, to: entries.endIndex, by: 2) {
            if let text = scalarKey(entries[position]), text != ScalarTexts.mergeKey { present.insert(text) }
        }
        var result: [Int32] = []
        for position in stride(from: entries.startIndex, to: entries.endIndex, by: 2) {
            let key = entries[position], value = entries[position + 1]
            guard isMergeKey(records[Int(key)]) else {
                result.append(key)
                result.append(value)
                continue
            }
            let valueRecord = records[Int(value)]
            var sources = [value]
            if valueRecord.kind == .sequence {
                let range = Int(valueRecord.first)..<Int(valueRecord.first + valueRecord.count)
                sources = Array(children.elements[range])
            }
            for source in sources {
                let sourceRecord = records[Int(source)]
                guard sourceRecord.kind == .mapping else {
                    let kind = sourceRecord.kind == .scalar ? "a scalar" : "a sequence"
                    errors.append(error(at: sourceRecord.mark, "a merge key '<<' takes a mapping or a list of mappings, got \(kind)"))
                    continue
                }
                let start = Int(sourceRecord.first)
                for pair in stride(from: start, to: start + Int(sourceRecord.count), by: 2) {
                    if let text = scalarKey(children[pair]) {
                        guard present.insert(text).inserted else { continue }
                    }
                    result.append(children[pair])
                    result.append(children[pair + 1])
                }
            }
        }
        return result
    }

    private func error(at mark: YAMLMark, _ message: String) -> PlanError {
        PlanError(location: SourceLocation(file: file, line: mark.line, column: mark.column), message: message)
    }
}
