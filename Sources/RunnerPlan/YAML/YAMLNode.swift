/// A 1-based position in the plan file.
struct YAMLMark: Sendable, Hashable, Comparable {
    // Stored narrow: a large plan holds millions of marks.
    private var storedLine: Int32
    private var storedColumn: Int32

    init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    var line: Int { Int(storedLine) }
    var column: Int { Int(storedColumn) }

    static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    var text: String { "\(line):\(column)" }
}

/// How a scalar was written; quoting decides whether `10` is a number or a string.
enum YAMLScalarStyle: Sendable, Equatable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
}

/// Every node of one document, stored flat.
///
/// A plan of 100,000 scenarios holds millions of nodes: flat arrays make that a few large
/// allocations instead of one per collection, and freeing it cheap. Built once, then read.
final class YAMLTree {
    enum Kind: UInt8 {
        case scalar
        case sequence
        case mapping
    }

    /// 20 bytes: millions of these are written and read for a large plan.
    struct Record {
        var kind: Kind
        var style: YAMLScalarStyle
        var tag: YAMLTag?
        var mark: YAMLMark
        /// A scalar's text in `scalars`, or where a collection's children start in `children`.
        var first: Int32
        /// Entries in `children`: items of a sequence, key and value alternating for a mapping.
        var count: Int32
    }

    // Immutable once built: reads need no exclusivity checks.
    /// Read in place from the builder's memory (see `TreeBuffer`).
    let records: UnsafeBufferPointer<Record>
    /// Each distinct scalar text once (see `ScalarTexts`): equal texts share one index.
    let scalars: [String]
    /// For each of `scalars`, whether it holds `${` (see `ScalarTexts.holdsReference`).
    let scalarsHoldingReference: [Bool]
    let children: UnsafeBufferPointer<Int32>
    /// Keep `records` and `children` alive; nil for an item's tree, read while the builder
    /// that holds them is (see `TreeBuilder.itemTree`).
    private let owners: (TreeBuffer<Record>.Owner, TreeBuffer<Int32>.Owner)?

    /// The tree as `records` and `children` hold it now; they must not change while it is read.
    /// - Parameter owning: whether the tree keeps their memory alive (it may outlive them).
    init(
        records: TreeBuffer<Record>, scalars: [String], scalarsHoldingReference: [Bool], children: TreeBuffer<Int32>,
        owning: Bool
    ) {
        self.records = records.elements
        self.scalars = scalars
        self.scalarsHoldingReference = scalarsHoldingReference
        self.children = children.elements
        owners = owning ? (records.owner, children.owner) : nil
    }

    func node(_ index: Int32) -> YAMLNode { YAMLNode(tree: YAMLTreeReference(self), index: index) }
}

/// A `YAMLTree` reference that is neither retained nor released: plain data, free to copy and drop.
///
/// Nodes, mappings and sequences hold one. Whoever parsed the tree keeps it alive for as long
/// as its nodes are read (`YAMLDocument.tree`, or the parser while it hands out an item). A
/// strong reference cost a retain and a release for every handle made, copied or dropped
/// (nodes, mappings, entries, optionals of them: about 10k instructions a scenario, a third
/// of them through generic value witnesses).
struct YAMLTreeReference {
    private let unmanaged: Unmanaged<YAMLTree>
    #if DEBUG
    /// Checked in debug builds (the tests): a node read after its tree is gone traps.
    private unowned let checked: YAMLTree
    #endif

    init(_ tree: YAMLTree) {
        unmanaged = .passUnretained(tree)
        #if DEBUG
        checked = tree
        #endif
    }

    /// Reads the tree as borrowed: no retain, no release.
    @inline(__always)
    func read<Result>(_ body: (YAMLTree) -> Result) -> Result {
        #if DEBUG
        _ = checked
        #endif
        return unmanaged._withUnsafeGuaranteedRef(body)
    }
}

/// One node of a parsed document (a handle into its `YAMLTree`), aliases already expanded.
/// It does not keep its tree alive (see `YAMLTreeReference`).
struct YAMLNode {
    enum Content {
        case scalar(String, YAMLScalarStyle)
        case sequence(YAMLSequence)
        case mapping(YAMLMapping)
    }

    let tree: YAMLTreeReference
    let index: Int32

    private var record: YAMLTree.Record { tree.read { $0.records[Int(index)] } }

    var content: Content {
        tree.read { storage in
            let record = storage.records[Int(index)]
            switch record.kind {
            case .scalar:
                return .scalar(storage.scalars[Int(record.first)], record.style)
            case .sequence:
                return .sequence(YAMLSequence(tree: tree, start: Int(record.first), count: Int(record.count)))
            case .mapping:
                return .mapping(YAMLMapping(tree: tree, start: Int(record.first), count: Int(record.count) / 2))
            }
        }
    }

    /// The tag written on the node (`!!str`), nil when none was.
    var tag: YAMLTag? { record.tag }
    /// Where the node starts (the quote of a quoted scalar, the `-` of a block sequence).
    var mark: YAMLMark { record.mark }

    /// The text of a scalar; "" for a collection.
    var scalarText: String {
        tree.read { storage in
            let record = storage.records[Int(index)]
            return record.kind == .scalar ? storage.scalars[Int(record.first)] : ""
        }
    }

    /// A scalar as written, from one look-up of its record (each of `content`, `tag` and `mark`
    /// is one): nil for a collection. Every value read asks all of it.
    var scalar: (text: String, style: YAMLScalarStyle, tag: YAMLTag?, mark: YAMLMark, holdsReference: Bool)? {
        tree.read { storage in
            let record = storage.records[Int(index)]
            guard record.kind == .scalar else { return nil }
            let text = Int(record.first)
            return (storage.scalars[text], record.style, record.tag, record.mark, storage.scalarsHoldingReference[text])
        }
    }

    /// A name for what the node is, for "expected …, got …" messages.
    var kindDescription: String {
        switch record.kind {
        case .scalar: return "a scalar"
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }
}

/// The items of a sequence node, in document order.
struct YAMLSequence: RandomAccessCollection {
    let tree: YAMLTreeReference
    let start: Int
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> YAMLNode {
        YAMLNode(tree: tree, index: tree.read { $0.children[start + position] })
    }
}

/// The key/value pairs of a mapping node, in document order.
struct YAMLMapping: RandomAccessCollection {
    let tree: YAMLTreeReference
    let start: Int
    /// Pairs, not children.
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> YAMLPair {
        let key = start + 2 * position
        return tree.read { storage in
            YAMLPair(key: YAMLNode(tree: tree, index: storage.children[key]), value: YAMLNode(tree: tree, index: storage.children[key + 1]))
        }
    }

    func keyNode(at position: Int) -> YAMLNode { YAMLNode(tree: tree, index: tree.read { $0.children[start + 2 * position] }) }

    /// The text index of the key at `position` when it is a scalar (nil for a collection), so
    /// keys are looked up with no node made. Equal texts have equal indices in a document, and
    /// the parser's known texts have 1, 2, 3… (see `YAMLParser.init`).
    func keyTextIndex(at position: Int) -> Int32? {
        tree.read { storage in
            let record = storage.records[Int(storage.children[start + 2 * position])]
            return record.kind == .scalar ? record.first : nil
        }
    }
}

/// A sequence's items, or one node standing for a one-item list (read in place, no array).
enum YAMLItems: RandomAccessCollection {
    case sequence(YAMLSequence)
    case single(YAMLNode)

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch self {
        case .sequence(let items): return items.count
        case .single: return 1
        }
    }

    subscript(position: Int) -> YAMLNode {
        switch self {
        case .sequence(let items): return items[position]
        case .single(let node): return node
        }
    }
}

/// A key and its value in a mapping.
struct YAMLPair {
    var key: YAMLNode
    var value: YAMLNode
}

/// A parsed plan document: its root and the errors found that did not stop parsing.
///
/// It owns the tree its nodes point into: keep it alive while they are read
/// (`withExtendedLifetime` where the last use of the document comes before theirs).
struct YAMLDocument {
    var root: YAMLNode?
    var errors: [PlanError]
    /// Whether the root is a block collection (not `{…}` or `[…]`, and not a scalar).
    var rootIsBlock = false
    /// Aliases expanded (`*name`).
    var aliases = 0
    /// What `root` points into (its nodes do not retain it).
    var tree: YAMLTree? = nil
}

/// The tags a plan may write: those of the YAML core schema, and `!` (non-specific: a string).
enum YAMLTag: UInt8, Sendable {
    case string
    case integer
    case float
    case boolean
    case null
    case mapping
    case sequence
    case nonSpecific

    /// From the tag as libyaml resolves it (`!!str` → `tag:yaml.org,2002:str`); nil for others.
    init?(resolved: String) {
        switch resolved {
        case "tag:yaml.org,2002:str": self = .string
        case "tag:yaml.org,2002:int": self = .integer
        case "tag:yaml.org,2002:float": self = .float
        case "tag:yaml.org,2002:bool": self = .boolean
        case "tag:yaml.org,2002:null": self = .null
        case "tag:yaml.org,2002:map": self = .mapping
        case "tag:yaml.org,2002:seq": self = .sequence
        case "!": self = .nonSpecific
        default: return nil
        }
    }

    /// `!!str` and `!` make a scalar a string whatever it looks like.
    var forcesString: Bool { self == .string || self == .nonSpecific }
}
