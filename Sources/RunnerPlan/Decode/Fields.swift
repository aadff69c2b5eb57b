/// The keys a mapping may hold, in the order messages list them.
struct KeySet: Sendable {
    let names: [String]

    init(_ names: [String]) {
        self.names = names
    }

    /// A linear scan: sections have a handful of short keys, cheaper to compare than to hash.
    func contains(_ key: String) -> Bool {
        let length = key.utf8.count
        return names.contains { $0.utf8.count == length && $0 == key }
    }
}

/// The entries of one mapping, already checked against the keys it may hold.
///
/// Unknown keys are reported (with a suggestion) when the fields are read, so a section's
/// decoder only asks for the keys it knows.
struct Fields {
    struct Entry {
        let key: String
        let keyMark: YAMLMark
        let value: YAMLNode
    }

    let context: Context
    /// Where a missing key is reported: the key that owns this mapping (or the mapping itself).
    let ownerMark: YAMLMark
    /// Known keys in document order (a few: lookups scan them).
    private(set) var entries: [Entry] = []

    fileprivate init(context: Context, ownerMark: YAMLMark) {
        self.context = context
        self.ownerMark = ownerMark
    }

    subscript(key: String) -> Entry? {
        let length = key.utf8.count
        return entries.first { $0.key.utf8.count == length && $0.key == key }
    }

    /// Whether the mapping wrote `key`.
    func has(_ key: String) -> Bool { self[key] != nil }

    fileprivate mutating func reserve(_ count: Int) {
        entries.reserveCapacity(count)
    }

    fileprivate mutating func append(_ entry: Entry) {
        entries.append(entry)
    }
}

extension PlanDecoder {
    /// Reads a mapping's keys, reporting unknown and non-scalar ones; nil (reported) when
    /// `node` is not a mapping.
    func fields(
        of node: YAMLNode, site: Site, context: Context, ownerMark: YAMLMark? = nil, keys: KeySet
    ) -> Fields? {
        guard case .mapping(let pairs) = node.content else {
            report(at: node.mark, "expected a mapping for \(site), got \(describe(node))")
            return nil
        }
        var fields = Fields(context: context, ownerMark: ownerMark ?? node.mark)
        fields.reserve(pairs.count)
        for pair in pairs {
            guard case .scalar(let key, _) = pair.key.content else {
                report(at: pair.key.mark, "expected a plain key \(context), got \(pair.key.kindDescription)")
                continue
            }
            guard keys.contains(key) else {
                let hint = Suggestion.closest(to: key, among: keys.names).map { "; did you mean '\($0)'?" }
                    ?? "; expected one of \(keys.names.joined(separator: ", "))"
                report(at: pair.key.mark, "unknown key '\(key)' \(context)\(hint)")
                continue
            }
            fields.append(Fields.Entry(key: key, keyMark: pair.key.mark, value: pair.value))
        }
        return fields
    }

    /// The entry for a key the section cannot do without; reported at the owner when missing.
    func required(_ key: String, in fields: Fields) -> Fields.Entry? {
        guard let entry = fields[key] else {
            report(at: fields.ownerMark, "missing required key '\(key)' \(fields.context)")
            return nil
        }
        return entry
    }

    /// The key/value pairs of a mapping whose keys are names the plan chooses (hosts,
    /// header names, map names); nil (reported) when `node` is not a mapping.
    func namedEntries(of node: YAMLNode, site: Site) -> [Fields.Entry]? {
        guard case .mapping(let pairs) = node.content else {
            report(at: node.mark, "expected a mapping for \(site), got \(describe(node))")
            return nil
        }
        var entries: [Fields.Entry] = []
        entries.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .scalar(let key, _) = pair.key.content else {
                report(at: pair.key.mark, "expected a plain key \(site.context), got \(pair.key.kindDescription)")
                continue
            }
            entries.append(Fields.Entry(key: key, keyMark: pair.key.mark, value: pair.value))
        }
        return entries
    }
}
