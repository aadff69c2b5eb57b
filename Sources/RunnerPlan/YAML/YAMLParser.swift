import CYAML

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
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let initialized: Bool

    init(source: SourceText) {
        self.source = source
        parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        initialized = yaml_parser_initialize(parser) == 1
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
    }

    /// Parses the whole input; the root is nil when the stream holds no document.
    func parse() throws(PlanError) -> YAMLDocument {
        guard initialized else {
            throw PlanError(location: nil, message: "cannot parse plan '\(source.file)': libyaml could not start")
        }
        let outcome: Result<YAMLDocument, PlanError> = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .success(YAMLDocument(root: nil, errors: []))
            }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, base, buffer.count)
            var builder = TreeBuilder(file: source.file, expectedBytes: buffer.count)
            do throws(PlanError) {
                while true {
                    let event = try nextEvent()
                    if try builder.consume(event) { break }
                }
                return .success(builder.document())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: - libyaml events

    /// Pulls the next event from libyaml and copies what we need out of it.
    private func nextEvent() throws(PlanError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw libyamlError() }
        defer { yaml_event_delete(&event) }
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_STREAM_END_EVENT:
            return .streamEnd
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(Self.text(event.data.alias.anchor) ?? "", mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value: String
            if let pointer = scalar.value {
                value = String(decoding: UnsafeBufferPointer(start: pointer, count: Int(scalar.length)), as: UTF8.self)
            } else {
                value = ""
            }
            let style: YAMLScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            return .scalar(value, style, tag: try tag(scalar.tag, at: mark), anchor: Self.text(scalar.anchor), mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            return .collectionStart(
                isMapping: false, tag: try tag(start.tag, at: mark), anchor: Self.text(start.anchor), mark)
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            return .collectionStart(
                isMapping: true, tag: try tag(start.tag, at: mark), anchor: Self.text(start.anchor), mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return .collectionEnd
        default:
            // YAML_NO_EVENT: libyaml only returns it after the stream has ended.
            return .streamEnd
        }
    }

    private func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at mark: YAMLMark) throws(PlanError) -> YAMLTag? {
        guard let written = Self.text(pointer) else { return nil }
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
        let problemMark = YAMLMark(line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1)
        let contextMark = YAMLMark(line: Int(state.context_mark.line) + 1, column: Int(state.context_mark.column) + 1)

        switch state.error {
        case YAML_MEMORY_ERROR:
            return PlanError(location: nil, message: "cannot parse plan '\(source.file)': out of memory")
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset, not a mark.
            let location = source.location(ofByte: Int(state.problem_offset))
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

/// What the tree builder needs from one libyaml event, with no C types left.
enum YAMLEvent {
    case streamStart
    case streamEnd
    case documentStart(YAMLMark)
    case documentEnd
    case alias(String, YAMLMark)
    case scalar(String, YAMLScalarStyle, tag: YAMLTag?, anchor: String?, YAMLMark)
    case collectionStart(isMapping: Bool, tag: YAMLTag?, anchor: String?, YAMLMark)
    case collectionEnd
}

/// Builds the node tree from events without recursion: an explicit stack of open collections.
///
/// Children of every open collection wait on one shared stack; a collection moves its slice
/// into the tree when it ends.
struct TreeBuilder {
    let file: String
    private var records: [YAMLTree.Record] = []
    private var scalars: [String] = []
    private var children: [Int32] = []
    private var root: Int32?
    /// Errors that do not stop parsing (duplicate keys).
    private var errors: [PlanError] = []

    private var stack: [Frame] = []
    /// Children of the open collections (for a mapping: key, value, key, value…).
    private var open: [Int32] = []
    private var anchors: [String: Int32] = [:]
    private var documents = 0
    private var realNodes = 0
    private var aliasNodes = 0

    init(file: String, expectedBytes: Int) {
        self.file = file
        // A rough guess (a node per dozen bytes) saves regrowing the arrays many times.
        records.reserveCapacity(expectedBytes / 12)
        scalars.reserveCapacity(expectedBytes / 20)
        children.reserveCapacity(expectedBytes / 12)
    }

    /// The finished document (call once the stream has ended).
    func document() -> YAMLDocument {
        let tree = YAMLTree(records: records, scalars: scalars, children: children)
        return YAMLDocument(root: root.map(tree.node), errors: errors)
    }

    private struct Frame {
        var isMapping: Bool
        var mark: YAMLMark
        var tag: YAMLTag?
        var anchor: String?
        /// Where this collection's children start in `open`.
        var start: Int
        var pendingKey: Int32?
        var dropValue = false
        /// Scalar keys by text, built only once a mapping grows large; small ones are scanned.
        var keyIndex: [String: YAMLMark]?
        var hasMergeKey = false
        var size = 1
    }

    /// Feeds one event; true when the stream has ended.
    mutating func consume(_ event: YAMLEvent) throws(PlanError) -> Bool {
        switch event {
        case .streamStart, .documentEnd:
            return false
        case .streamEnd:
            return true
        case .documentStart(let mark):
            documents += 1
            if documents > 1 {
                throw error(at: mark, "a plan file holds one YAML document; '---' here starts a second one")
            }
            return false
        case .alias(let name, let mark):
            guard let target = anchors[name] else {
                if stack.contains(where: { $0.anchor == name }) {
                    throw error(at: mark, "alias '*\(name)' refers to a node that contains it")
                }
                throw error(at: mark, "undefined alias '*\(name)'")
            }
            // The same node again (its children are shared), but located at the alias.
            var record = records[Int(target)]
            aliasNodes += record.size
            let budget = max(YAMLParser.minimumAliasBudget, 4 * realNodes)
            if aliasNodes > budget {
                throw error(at: mark, "aliases expand to more than \(budget) nodes; refusing what looks like an alias bomb")
            }
            record.mark = mark
            add(append(record))
            return false
        case .scalar(let value, let style, let tag, let anchor, let mark):
            realNodes += 1
            scalars.append(value)
            let index = append(YAMLTree.Record(
                kind: .scalar, style: style, tag: tag, mark: mark, first: Int32(scalars.count - 1), count: 0,
                size: 1))
            if let anchor { anchors[anchor] = index }
            add(index)
            return false
        case .collectionStart(let isMapping, let tag, let anchor, let mark):
            if stack.count >= YAMLParser.maximumDepth {
                throw error(at: mark, "nesting deeper than \(YAMLParser.maximumDepth) levels")
            }
            realNodes += 1
            stack.append(Frame(isMapping: isMapping, mark: mark, tag: tag, anchor: anchor, start: open.count))
            return false
        case .collectionEnd:
            guard let frame = stack.popLast() else { return false }
            let first = children.count
            if frame.isMapping, frame.hasMergeKey {
                let merged = merged(open[frame.start...])
                children.append(contentsOf: merged)
            } else {
                children.append(contentsOf: open[frame.start...])
            }
            open.removeSubrange(frame.start...)
            let index = append(YAMLTree.Record(
                kind: frame.isMapping ? .mapping : .sequence, style: .plain, tag: frame.tag, mark: frame.mark,
                first: Int32(first), count: Int32(children.count - first), size: frame.size))
            if let anchor = frame.anchor { anchors[anchor] = index }
            add(index)
            return false
        }
    }

    private mutating func append(_ record: YAMLTree.Record) -> Int32 {
        records.append(record)
        return Int32(records.count - 1)
    }

    private func scalarKey(_ index: Int32) -> String? {
        let record = records[Int(index)]
        return record.kind == .scalar ? scalars[Int(record.first)] : nil
    }

    private mutating func add(_ index: Int32) {
        guard let top = stack.indices.last else {
            root = index
            return
        }
        let size = records[Int(index)].size
        if !stack[top].isMapping {
            open.append(index)
            stack[top].size += size
            return
        }
        if let key = stack[top].pendingKey.take() {
            if stack[top].dropValue {
                stack[top].dropValue = false
                return
            }
            stack[top].size += records[Int(key)].size + size
            open.append(key)
            open.append(index)
            if stack[top].keyIndex == nil, open.count - stack[top].start == 32 {
                var keyIndex: [String: YAMLMark] = [:]
                for position in stride(from: stack[top].start, to: open.count, by: 2) {
                    if let text = scalarKey(open[position]), keyIndex[text] == nil {
                        keyIndex[text] = records[Int(open[position])].mark
                    }
                }
                stack[top].keyIndex = keyIndex
            }
            return
        }
        // A key: duplicates are reported here, at the second one, and its value dropped.
        let record = records[Int(index)]
        if record.kind == .scalar {
            let text = scalars[Int(record.first)]
            var first: YAMLMark?
            if stack[top].keyIndex != nil {
                first = stack[top].keyIndex?[text]
                if first == nil { stack[top].keyIndex?[text] = record.mark }
            } else {
                for position in stride(from: stack[top].start, to: open.count, by: 2) where scalarKey(open[position]) == text {
                    first = records[Int(open[position])].mark
                    break
                }
            }
            if let first {
                errors.append(error(at: record.mark, "duplicate key '\(text)' (first at \(first.text))"))
                stack[top].dropValue = true
            }
            if text == "<<", record.style == .plain, record.tag == nil { stack[top].hasMergeKey = true }
        }
        stack[top].pendingKey = index
    }

    /// Applies YAML merge keys (`<<: *defaults`) to a mapping's children: keys written in the
    /// mapping win, then earlier merged mappings over later ones.
    private mutating func merged(_ entries: ArraySlice<Int32>) -> [Int32] {
        var present = Set<String>()
        for position in stride(from: entries.startIndex, to: entries.endIndex, by: 2) {
            if let text = scalarKey(entries[position]), text != "<<" { present.insert(text) }
        }
        var result: [Int32] = []
        for position in stride(from: entries.startIndex, to: entries.endIndex, by: 2) {
            let key = entries[position], value = entries[position + 1]
            let keyRecord = records[Int(key)]
            guard scalarKey(key) == "<<", keyRecord.style == .plain, keyRecord.tag == nil else {
                result.append(key)
                result.append(value)
                continue
            }
            let valueRecord = records[Int(value)]
            var sources = [value]
            if valueRecord.kind == .sequence {
                let range = Int(valueRecord.first)..<Int(valueRecord.first + valueRecord.count)
                sources = Array(children[range])
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
