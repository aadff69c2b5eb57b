/// A known key of a section, and its value.
struct FieldEntry<Key: SectionKey> {
    let name: Key
    let keyMark: YAMLMark
    let value: YAMLNode

    /// The key as written (keys are matched exactly).
    var key: String { name.rawValue }
}

/// The entries of one mapping, already checked against the keys its section may hold.
///
/// Unknown keys are reported (with a suggestion) when the fields are read, so a section's
/// decoder only asks for the keys it knows.
struct Fields<Key: SectionKey> {
    typealias Entry = FieldEntry<Key>

    /// The known entries in document order, read from the mapping when visited: no array is
    /// made, as a large plan holds hundreds of thousands of mappings.
    struct Entries: Sequence {
        fileprivate let pairs: YAMLMapping
        fileprivate let keys: SectionKeys<Key>

        func makeIterator() -> Iterator { Iterator(entries: self) }

        struct Iterator: IteratorProtocol {
            fileprivate let entries: Entries
            private var position = 0

            fileprivate init(entries: Entries) {
                self.entries = entries
            }

            mutating func next() -> Entry? {
                while position < entries.pairs.count {
                    defer { position += 1 }
                    if let entry = entries.entry(at: position) { return entry }
                }
                return nil
            }
        }

        /// The entry at pair `position`, nil when its key is not one of the section's.
        fileprivate func entry(at position: Int) -> Entry? {
            guard let index = pairs.keyTextIndex(at: position), let name = keys.key(textIndex: index) else { return nil }
            let pair = pairs[position]
            return Entry(name: name, keyMark: pair.key.mark, value: pair.value)
        }

        fileprivate func first(named name: Key) -> Entry? {
            for position in 0..<pairs.count {
                if let index = pairs.keyTextIndex(at: position), keys.key(textIndex: index) == name {
                    return entry(at: position)
                }
            }
            return nil
        }
    }

    let context: Context
    /// Where a missing key is reported: the key that owns this mapping (or the mapping itself).
    let ownerMark: YAMLMark
    let entries: Entries

    subscript(name: Key) -> Entry? { entries.first(named: name) }

    /// Whether the mapping wrote `name`.
    func has(_ name: Key) -> Bool { self[name] != nil }
}

/// A key the plan chooses (a host, a header name) and its value.
struct NamedEntry {
    let key: String
    let keyMark: YAMLMark
    let value: YAMLNode
}

/// The entries of a mapping whose keys are names the plan chooses, read in place like `Fields.Entries`.
struct NamedEntries: Sequence {
    fileprivate let pairs: YAMLMapping

    func makeIterator() -> Iterator { Iterator(pairs: pairs) }

    struct Iterator: IteratorProtocol {
        fileprivate let pairs: YAMLMapping
        private var position = 0

        fileprivate init(pairs: YAMLMapping) {
            self.pairs = pairs
        }

        mutating func next() -> NamedEntry? {
            while position < pairs.count {
                defer { position += 1 }
                let key = pairs.keyNode(at: position)
                // Collection keys were reported when the entries were read.
                guard case .scalar(let text, _) = key.content else { continue }
                return NamedEntry(key: text, keyMark: key.mark, value: pairs[position].value)
            }
            return nil
        }
    }

    var count: Int { (0..<pairs.count).reduce(0) { $0 + (pairs.keyTextIndex(at: $1) == nil ? 0 : 1) } }
}

extension PlanDecoder {
    /// Reads a mapping's keys, reporting unknown and non-scalar ones; nil (reported) when
    /// `node` is not a mapping.
    ///
    /// - Parameter enclosing: for `request` and `expect`, the scenario's mapping, so that a key
    ///   written in the wrong one is told the line of the right one.
    ///
    /// Inlined, so the optional is folded into the caller's `guard let`: made and dropped, an
    /// optional of this large generic value was destroyed through value witnesses (~200
    /// instructions, some ten times a scenario).
    @inline(__always)
    func fields<Key>(
        of node: YAMLNode, site: @autoclosure () -> Site, context: Context, ownerMark: YAMLMark? = nil,
        keys: SectionKeys<Key>, enclosing: YAMLMapping? = nil
    ) -> Fields<Key>? {
        guard case .mapping(let pairs) = node.content else {
            report(at: node.mark, "expected a mapping for \(site()), got \(describe(node))")
            return nil
        }
        let section = keys.section
        for position in 0..<pairs.count {
            if let index = pairs.keyTextIndex(at: position), keys.keySet.contains(textIndex: index) { continue }
            let keyNode = pairs.keyNode(at: position)
            guard case .scalar(let key, _) = keyNode.content else {
                report(at: keyNode.mark, "expected a plain key \(context), got \(keyNode.kindDescription)")
                continue
            }
            // A key of the plan's own (`x-common: &defaults {…}`), as docker-compose and OpenAPI
            // reserve `x-`: a place to park anchors, or notes for other tools; never read.
            if Self.isExtensionKey(key) { continue }
            report(at: keyNode.mark, "unknown key '\(key)' \(context); " + advice(
                forUnknown: key, textIndex: pairs.keyTextIndex(at: position), in: section,
                siblings: enclosing ?? pairs))
        }
        return Fields(context: context, ownerMark: ownerMark ?? node.mark, entries: Fields.Entries(pairs: pairs, keys: keys))
    }

    /// Where a key the runner knows belongs; else the closest key of the section, or the list.
    private func advice(forUnknown key: String, textIndex: Int32?, in section: PlanSection, siblings: YAMLMapping) -> String {
        if let textIndex, let known = PlanKey(textIndex: textIndex), let misplaced = MisplacedKey(known, in: section) {
            return misplaced.advice(section: section, siblings: siblings)
        }
        let names = section.keys.names
        if Self.looksLikeExtensionKey(key) {
            return "a key of the plan's own starts with 'x-' (lower case, then a hyphen)"
        }
        if let closest = Suggestion.closest(to: key, among: names) { return "did you mean '\(closest)'?" }
        // A misspelt key of another section (`tiemout` in request): its name and its home.
        let elsewhere = PlanKey.allCases.filter { MisplacedKey($0, in: section) != nil }.map(\.rawValue)
        if let closest = Suggestion.closest(to: key, among: elsewhere), let known = PlanKey(rawValue: closest),
           let misplaced = MisplacedKey(known, in: section) {
            return "did you mean '\(closest)'? " + misplaced.advice(section: section, siblings: siblings)
        }
        return "expected one of \(names.joined(separator: ", "))"
    }

    /// Whether a key of a section the runner defines is the plan's own: it starts with `x-`.
    /// In mappings whose keys the plan chooses (headers, vars, hosts, map names) such a key is a
    /// name like any other: `x-request-id` under `headers` is a header.
    static func isExtensionKey(_ key: String) -> Bool {
        key.utf8.starts(with: "x-".utf8)
    }

    /// `X-note`, `x_note`: meant as a key of the plan's own, written another way.
    private static func looksLikeExtensionKey(_ key: String) -> Bool {
        let head = Array(key.utf8.prefix(2))
        return head.count == 2 && (head[0] == UInt8(ascii: "x") || head[0] == UInt8(ascii: "X"))
            && (head[1] == UInt8(ascii: "-") || head[1] == UInt8(ascii: "_"))
    }

    /// The entry for a key the section cannot do without; reported at the owner when missing.
    func required<Key>(_ name: Key, in fields: Fields<Key>) -> FieldEntry<Key>? {
        guard let entry = fields[name] else {
            report(at: fields.ownerMark, "missing required key '\(name.rawValue)' \(fields.context)")
            return nil
        }
        return entry
    }

    /// The key/value pairs of a mapping whose keys are names the plan chooses (hosts,
    /// header names, map names); nil (reported) when `node` is not a mapping.
    func namedEntries(of node: YAMLNode, site: @autoclosure () -> Site) -> NamedEntries? {
        guard case .mapping(let pairs) = node.content else {
            report(at: node.mark, "expected a mapping for \(site()), got \(describe(node))")
            return nil
        }
        for position in 0..<pairs.count where pairs.keyTextIndex(at: position) == nil {
            let keyNode = pairs.keyNode(at: position)
            report(at: keyNode.mark, "expected a plain key \(site().context), got \(keyNode.kindDescription)")
        }
        return NamedEntries(pairs: pairs)
    }
}
