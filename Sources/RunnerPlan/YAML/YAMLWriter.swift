/// Writes YAML documents that carry comments, which libyaml's emitter cannot write.
///
/// Block style with 2-space indentation; every scalar on one line (line breaks escaped in
/// double quotes, never a block scalar, which would lose trailing spaces and `\r`). Reading stays
/// libyaml's (`YAMLParser`): the tests read everything written here back through it.
public enum YAMLWriter {
    /// A flow collection is written on one line only when that line ends by this column.
    public static let flowLineLimit = 100
    /// libyaml refuses an implicit key longer than 1024 characters: a longer key is written
    /// explicitly (`? key` then `: value`). Counted in UTF-8 bytes, never fewer than characters.
    static let longestImplicitKey = 1000

    /// A block mapping document of `entries` below the comment lines `comments`, ending with a newline.
    public static func document(_ entries: [YAMLEntry], comments: [String] = []) -> String {
        var output = ""
        writeComments(comments, indent: 0, into: &output)
        if entries.isEmpty {
            output += "{}\n"
        } else {
            writeMapping(entries, indent: 0, lead: nil, into: &output)
        }
        return output
    }

    // MARK: Block layout

    /// `entries` as a block mapping with its keys at `indent`; the first key follows `lead` when
    /// given (a sequence item's `- `, whose comments the caller has written).
    private static func writeMapping(_ entries: [YAMLEntry], indent: Int, lead: String?, into output: inout String) {
        for (position, entry) in entries.enumerated() {
            let linePrefix: String
            if position == 0, let lead {
                linePrefix = lead
            } else {
                writeComments(entry.comments, indent: indent, into: &output)
                linePrefix = spaces(indent)
            }
            let key = scalarText(entry.key, plainAllowed: isPlainString(entry.key, inFlow: false))
            if key.utf8.count > longestImplicitKey {
                output += linePrefix + "? " + key + "\n"
                writeValue(entry.value, after: spaces(indent) + ":", indent: indent, into: &output)
            } else {
                writeValue(entry.value, after: linePrefix + key + ":", indent: indent, into: &output)
            }
        }
    }

    /// `items` as a block sequence with its `-` at `indent`; the first item follows `lead` when
    /// given (an enclosing item's `- `).
    private static func writeSequence(_ items: [YAMLItem], indent: Int, lead: String?, into output: inout String) {
        for (position, item) in items.enumerated() {
            let linePrefix: String
            if position == 0, let lead {
                linePrefix = lead
            } else {
                writeComments(item.comments, indent: indent, into: &output)
                linePrefix = spaces(indent)
            }
            writeItemValue(item.value, lead: linePrefix + "- ", indent: indent + 2, into: &output)
        }
    }

    /// A mapping's value after `head` (`key:`), on the same line or indented below it.
    private static func writeValue(_ value: YAMLValue, after head: String, indent: Int, into output: inout String) {
        if let inline = inlineText(value, column: head.count + 1) {
            output += inline.isEmpty ? head + "\n" : head + " " + inline + "\n"
            return
        }
        output += head + "\n"
        switch value {
        case .mapping(let entries, _):
            writeMapping(entries, indent: indent + 2, lead: nil, into: &output)
        case .sequence(let items, _):
            writeSequence(items, indent: indent + 2, lead: nil, into: &output)
        case .string, .plain, .integer, .boolean:
            break  // Always inline.
        }
    }

    /// A sequence item's value after `lead` (ending in `- `); a collection's first member shares
    /// the line, the others are aligned under it at `indent`.
    private static func writeItemValue(_ value: YAMLValue, lead: String, indent: Int, into output: inout String) {
        if let inline = inlineText(value, column: lead.count) {
            // An empty plain scalar is the `-` alone (no trailing space).
            output += inline.isEmpty ? String(lead.dropLast()) + "\n" : lead + inline + "\n"
            return
        }
        // The first member's comments go above the line it shares with the `-`.
        switch value {
        case .mapping(let entries, _):
            writeComments(entries.first?.comments ?? [], indent: indent - 2, into: &output)
            writeMapping(entries, indent: indent, lead: lead, into: &output)
        case .sequence(let items, _):
            writeComments(items.first?.comments ?? [], indent: indent - 2, into: &output)
            writeSequence(items, indent: indent, lead: lead, into: &output)
        case .string, .plain, .integer, .boolean:
            break  // Always inline.
        }
    }

    /// The one-line text of a scalar, an empty collection, or a flow collection that fits from
    /// `column` on; nil for what is written as a block.
    private static func inlineText(_ value: YAMLValue, column: Int) -> String? {
        switch value {
        case .string, .plain, .integer, .boolean:
            return scalarText(value, inFlow: false)
        case .sequence(let items, let style):
            if items.isEmpty { return "[]" }
            guard style == .flow, items.allSatisfy({ $0.comments.isEmpty }) else { return nil }
            var members: [String] = []
            for item in items {
                guard let member = flowMember(item.value) else { return nil }
                members.append(member)
            }
            return fitting("[" + members.joined(separator: ", ") + "]", from: column)
        case .mapping(let entries, let style):
            if entries.isEmpty { return "{}" }
            guard style == .flow, entries.allSatisfy({ $0.comments.isEmpty }) else { return nil }
            var members: [String] = []
            for entry in entries {
                guard let value = flowMember(entry.value) else { return nil }
                members.append(scalarText(entry.key, plainAllowed: isPlainString(entry.key, inFlow: true)) + ": " + value)
            }
            return fitting("{" + members.joined(separator: ", ") + "}", from: column)
        }
    }

    /// A scalar's text inside a flow collection; nil for a collection, or an empty plain scalar
    /// (which a flow collection would not keep as a member).
    private static func flowMember(_ value: YAMLValue) -> String? {
        switch value {
        case .sequence, .mapping:
            return nil
        case .string, .plain, .integer, .boolean:
            let text = scalarText(value, inFlow: true)
            return text.isEmpty ? nil : text
        }
    }

    private static func fitting(_ text: String, from column: Int) -> String? {
        column + text.count <= flowLineLimit ? text : nil
    }

    private static func spaces(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }
}
