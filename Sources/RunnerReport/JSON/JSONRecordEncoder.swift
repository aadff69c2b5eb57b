/// Writes a report record through its `Encodable` conformance straight into a `JSONWriter`, so a
/// record's stored properties and `CodingKeys` are the one description of its JSON fields: the
/// report writes them from it, and the tests read reports back through the same conformance.
///
/// Two rules differ from what JSONEncoder does with a synthesized conformance: an absent
/// optional is written as `null`, never left out (every documented key is always present), and
/// each object's keys come out sorted whatever order `encode(to:)` gives them.
///
/// Keeping the keys sorted costs little after the first value of a type. The encoder learns,
/// per `CodingKey` type, the order `encode(to:)` gives the keys (a synthesized conformance
/// always gives all of them, in the order `CodingKeys` declares them) and where each one goes
/// in sorted order (`KeyOrder`). A later object of that type whose keys come already sorted is
/// written member by member, straight into place; one whose keys come in another order keeps
/// its members' values (not their bytes) until it closes and writes them in sorted order. Any
/// object that departs from what was learnt (a key missing, added or moved, as a custom
/// `encode(to:)` or a dictionary may do) is sorted by moving its members' bytes, as the first
/// object of its type was. Nested values are encoded by one encoder per nesting level, made
/// once and reused, which also keeps the containers it made for the types it met lately.
///
/// An instance is for one thread at a time (a report renders on the report worker's thread or
/// the engine's, one result at a time); it keeps what it learnt between `write`s.
final class JSONRecordEncoder {
    private let shared = Shared()
    private lazy var top = RecordEncoder(shared: shared, level: 0)
    private var wrote = false

    init() {}

    deinit {
        // Each level's encoder keeps containers that hold it (`RecordEncoder.Recent`).
        if wrote { top.forget() }
    }

    /// Writes `value` as the next value of `writer` (after a `key(_:)`, an `element()`, or at
    /// the top of a document or fragment).
    func write<Value: Encodable>(_ value: Value, to writer: inout JSONWriter) {
        // The encoders write through this pointer, valid only inside this call, instead of
        // through a stored writer: no copy of the bytes, and no exclusivity check per write.
        withUnsafeMutablePointer(to: &writer) { pointer in
            shared.target = pointer
            defer { shared.target = shared.idle }
            wrote = true
            top.write(value)
        }
    }

    /// What this encoder learnt of a keyed container type: its keys in the order its
    /// `encode(to:)` gives them, and whether that order is already sorted (for the tests).
    func learntOrder(of keyType: any CodingKey.Type) -> (keys: [String], sorted: Bool)? {
        guard let order = shared.orders[ObjectIdentifier(keyType)], order.usable else { return nil }
        return (order.keys, order.inOrder)
    }
}

/// What the encoders of one `JSONRecordEncoder` share: where to write, and the key orders learnt.
private final class Shared {
    /// The writer of the `write` in progress; `idle` between writes.
    var target: UnsafeMutablePointer<JSONWriter>
    /// A writer for nothing, so that `target` is never dangling: a container kept past its
    /// `encode(to:)` (which no conformance does) writes there, harmlessly.
    let idle: UnsafeMutablePointer<JSONWriter>
    var orders: [ObjectIdentifier: KeyOrder] = [:]

    init() {
        idle = .allocate(capacity: 1)
        idle.initialize(to: JSONWriter())
        target = idle
    }

    deinit {
        idle.deinitialize(count: 1)
        idle.deallocate()
    }
}

/// The keys of one keyed container type as its `encode(to:)` gives them, learnt from the first
/// object of that type, with their place in sorted order and their bytes ready to write.
private final class KeyOrder {
    /// False when the first object gave a key twice: objects of the type are always sorted
    /// by moving bytes.
    let usable: Bool
    /// In the order `encode(to:)` gave them.
    let keys: [String]
    /// `keys[i]`'s place in sorted order.
    let rank: [Int]
    /// Whether `keys` are already sorted, so members can be written as they come.
    let inOrder: Bool
    /// The members' lines for the depth objects of this type were last written at.
    private var lines: MemberLines?

    init(_ keys: [String]) {
        self.keys = keys
        usable = Set(keys).count == keys.count
        let sorted = keys.indices.sorted { keys[$0] < keys[$1] }
        var rank = [Int](repeating: 0, count: keys.count)
        for (place, index) in sorted.enumerated() { rank[index] = place }
        self.rank = rank
        inOrder = rank.elementsEqual(keys.indices)
    }

    /// The members' lines for an object `depth` levels deep, or -1 when compact (see
    /// `JSONWriter.layout`; nearly always the same).
    func lines(depth: Int) -> MemberLines {
        if let lines, lines.depth == depth { return lines }
        let made = MemberLines(keys, rank: rank, depth: depth)
        lines = made
        return made
    }
}

/// What `JSONWriter.key` writes for each key of a `KeyOrder` at one depth (separator, newline,
/// indent, key), worked out once, each line in one piece; with the keys and their sorted places.
/// It lives in memory of its own, read through `View`: pointers, which an encoder copies and
/// reads per member without the reference counting that reading arrays held by a class costs
/// (measured: six atomic operations a member).
final class MemberLines {
    /// This object's memory, valid while it lives (the encoder holding a view holds it).
    struct View {
        let count: Int
        /// The keys in the order `encode(to:)` gives them.
        let keys: UnsafePointer<String>
        /// `keys[i]`'s place in sorted order.
        let rank: UnsafePointer<Int>
        let bytes: UnsafePointer<UInt8>
        /// The line of `keys[i]` is `bytes[lines[2i]..<lines[2i + 1]]`.
        let byArrival: UnsafePointer<Int>
        /// The same for the key at sorted place `i`.
        let bySortedPlace: UnsafePointer<Int>

        /// The line of `keys[index]`, or of the key at sorted place `index`.
        func line(_ index: Int, sorted: Bool = false) -> UnsafeBufferPointer<UInt8> {
            let table = sorted ? bySortedPlace : byArrival
            return UnsafeBufferPointer(start: bytes + table[2 * index], count: table[2 * index + 1] - table[2 * index])
        }
    }

    let depth: Int
    let view: View
    private let keys: UnsafeMutablePointer<String>
    private let numbers: UnsafeMutablePointer<Int>
    private let bytes: UnsafeMutablePointer<UInt8>

    init(_ keys: [String], rank: [Int], depth: Int) {
        self.depth = depth
        var lines: [UInt8] = []
        var byArrival: [Int] = []
        for key in keys {
            byArrival.append(lines.count)
            JSONWriter.memberLine(key, layout: depth, to: &lines)
            byArrival.append(lines.count)
        }
        var bySortedPlace = byArrival
        for (index, place) in rank.enumerated() {
            bySortedPlace[2 * place] = byArrival[2 * index]
            bySortedPlace[2 * place + 1] = byArrival[2 * index + 1]
        }
        let count = keys.count
        self.keys = .allocate(capacity: count)
        self.keys.initialize(from: keys, count: count)
        numbers = .allocate(capacity: 5 * count)
        numbers.initialize(from: rank + byArrival + bySortedPlace, count: 5 * count)
        bytes = .allocate(capacity: lines.count)
        bytes.initialize(from: lines, count: lines.count)
        view = View(
            count: count, keys: self.keys, rank: numbers, bytes: bytes, byArrival: numbers + count,
            bySortedPlace: numbers + 3 * count)
    }

    deinit {
        keys.deinitialize(count: view.count)
        keys.deallocate()
        numbers.deallocate()
        bytes.deallocate()
    }
}

/// A keyed container kept for reuse by the encoder it holds (see `RecordEncoder.Recent`):
/// making one costs an allocation and two generic type lookups. The encoder holds it, so
/// `JSONRecordEncoder.deinit` lets go of it.
private final class ContainerBox<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container
    }
}

/// A member's value kept until its object closes (an object whose keys come out of order).
private enum Slot {
    case empty
    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case value(any Encodable)
}

/// The encoder one value's `encode(to:)` is given; it opens at most one container. One per
/// nesting level, reused: `write` starts it afresh for each value.
private final class RecordEncoder: Encoder {
    enum Opened {
        case object
        case array
        case single
    }

    /// How the open object's members reach their sorted places.
    enum Layout {
        /// The first object of its key type: members written as they come, then their bytes
        /// sorted; the order they came in is learnt when the object closes.
        case learning
        /// As `learning`, nothing learnt (the type's order is known, and this object left it).
        case moving
        /// The keys come sorted (`order.inOrder`): each member written as it comes.
        case direct
        /// The keys come in another order: values kept by sorted place until the object closes.
        case kept
    }

    /// What one value's encoding changes as it goes.
    struct State {
        var opened: Opened?
        var layout = Layout.moving
        /// Under `direct` and `kept`: the key type's learnt order and a view of its members'
        /// lines. Not held here: this level's `recent` entry holds both for as long as the
        /// object is open (an entry goes only when the level opens another object), so opening
        /// and closing an object counts no references.
        unowned(unsafe) var order: KeyOrder?
        var view: MemberLines.View?
        /// Where the open object's first member starts.
        var objectStart = 0
        /// Under `learning`: the key type, to remember its order by.
        var keyType: ObjectIdentifier?
        /// Members of the open object so far.
        var arrived = 0
        /// Under `learning` and `moving`: each member's key and where it starts in the bytes.
        var members: [(key: String, start: Int)] = []
        /// Under `kept`: the values, by sorted place.
        var slots: [Slot] = []
        /// The key types of objects met at this level lately (a few), each with what an object
        /// of the type needs, so that the next costs no lookup (a dictionary's, and the runtime's
        /// exclusivity checks on the shared state; measured at a sixth of an object's cost).
        var recent: [Recent] = []
        /// What `recent` is looked up by, apart: comparing these copies no references.
        var recentKeys: [RecentKey] = []
        /// Whether `inner` is the encoder of a container nested here (`nestedContainer`,
        /// `superEncoder`), to be closed before this one's next member: a stream cannot go
        /// back, so a nested container is filled before its parent goes on (the records nest
        /// none).
        var hasChild = false
    }

    /// A key type met lately, at a depth (see `State.recent`).
    struct Recent {
        let order: KeyOrder
        let lines: MemberLines
        /// The `ContainerBox` of the key type for this encoder.
        let container: AnyObject
    }

    struct RecentKey: Equatable {
        let keyType: ObjectIdentifier
        let depth: Int
    }

    /// How many key types `State.recent` keeps per level.
    private static let recentTypes = 8

    private let shared: Shared
    /// Behind a pointer this encoder owns rather than in stored properties: each access to a
    /// class's stored `var` is checked for exclusivity at run time (a call into the runtime,
    /// measured at about a tenth of the encoder's instructions), a pointee's is not. Only this
    /// encoder touches it, one call at a time.
    private let state: UnsafeMutablePointer<State>
    /// The encoder of the next nesting level, made when first needed.
    private var nextLevel: RecordEncoder?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// How deep in the value written this encoder's values sit (0: the value itself).
    let level: Int

    init(shared: Shared, level: Int) {
        self.shared = shared
        self.level = level
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var writer: UnsafeMutablePointer<JSONWriter> { shared.target }

    /// The encoder for the values of this one's members and elements.
    var inner: RecordEncoder {
        if let nextLevel { return nextLevel }
        let made = RecordEncoder(shared: shared, level: level + 1)
        nextLevel = made
        return made
    }

    /// Writes one value: a primitive directly, anything else through its `encode(to:)` with
    /// this encoder, its container closed once that returns (a value that encodes nothing is
    /// written as `null`).
    func write<Value: Encodable>(_ value: Value) {
        if writePrimitive(value) { return }
        begin()
        // This encoder never throws, and the records' synthesized conformances throw only
        // what it throws.
        try? value.encode(to: self)
        finish()
    }

    /// Writes `value` and returns true if it is a number, a string or a bool, which
    /// JSONEncoder writes as such rather than through their `encode(to:)`.
    private func writePrimitive<Value: Encodable>(_ value: Value) -> Bool {
        // A metatype comparison first (cheap), so that only a cast bound to succeed is made.
        let type = ObjectIdentifier(Value.self)
        let writer = writer
        if type == ObjectIdentifier(String.self), let value = value as? String {
            writer.pointee.string(value)
        } else if type == ObjectIdentifier(Int.self), let value = value as? Int {
            writer.pointee.int(value)
        } else if type == ObjectIdentifier(Double.self), let value = value as? Double {
            writer.pointee.double(value)
        } else if type == ObjectIdentifier(Bool.self), let value = value as? Bool {
            writer.pointee.bool(value)
        } else if type == ObjectIdentifier(Float.self), let value = value as? Float {
            writer.pointee.float(value)
        } else {
            return writeInteger(value, type)
        }
        return true
    }

    /// The other integer types, written as numbers (their `encode(to:)` would come back here
    /// through a single value container).
    private func writeInteger<Value>(_ value: Value, _ type: ObjectIdentifier) -> Bool {
        switch type {
        case ObjectIdentifier(Int8.self): writeInteger(value, as: Int8.self)
        case ObjectIdentifier(Int16.self): writeInteger(value, as: Int16.self)
        case ObjectIdentifier(Int32.self): writeInteger(value, as: Int32.self)
        case ObjectIdentifier(Int64.self): writeInteger(value, as: Int64.self)
        case ObjectIdentifier(UInt.self): writeInteger(value, as: UInt.self)
        case ObjectIdentifier(UInt8.self): writeInteger(value, as: UInt8.self)
        case ObjectIdentifier(UInt16.self): writeInteger(value, as: UInt16.self)
        case ObjectIdentifier(UInt32.self): writeInteger(value, as: UInt32.self)
        case ObjectIdentifier(UInt64.self): writeInteger(value, as: UInt64.self)
        default: false
        }
    }

    private func writeInteger<Value, Integer: BinaryInteger>(_ value: Value, as: Integer.Type) -> Bool {
        guard let integer = value as? Integer else { return false }
        writer.pointee.int(integer)
        return true
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if state.pointee.opened == nil {
            writer.pointee.open(.object)
            state.pointee.opened = .object
            state.pointee.objectStart = writer.pointee.buffer.count
            let keyType = ObjectIdentifier(Key.self)
            // The writer's layout: its depth, or compact (one line, whatever the depth).
            let depth = writer.pointee.layout
            if let index = state.pointee.recentKeys.firstIndex(of: RecentKey(keyType: keyType, depth: depth)) {
                use(state.pointee.recent[index].order, state.pointee.recent[index].lines)
                // Only `ContainerBox<Key>`s are kept under `Key`'s identifier.
                return unsafeDowncast(state.pointee.recent[index].container, to: ContainerBox<Key>.self).container
            }
            if let order = shared.orders[keyType] {
                let container = KeyedEncodingContainer(ObjectContainer<Key>(encoder: self))
                guard order.usable else {
                    state.pointee.layout = .moving
                    return container
                }
                let lines = order.lines(depth: depth)
                if state.pointee.recent.count == Self.recentTypes {
                    state.pointee.recent.removeFirst()
                    state.pointee.recentKeys.removeFirst()
                }
                state.pointee.recent.append(Recent(order: order, lines: lines, container: ContainerBox(container)))
                state.pointee.recentKeys.append(RecentKey(keyType: keyType, depth: depth))
                use(order, lines)
                return container
            }
            state.pointee.layout = .learning
            state.pointee.keyType = keyType
        }
        return KeyedEncodingContainer(ObjectContainer<Key>(encoder: self))
    }

    /// Lays the open object out by the learnt `order` (usable), its members' lines `lines`.
    private func use(_ order: KeyOrder, _ lines: MemberLines) {
        state.pointee.layout = order.inOrder ? .direct : .kept
        state.pointee.order = order
        state.pointee.view = lines.view
        let missing = order.keys.count - state.pointee.slots.count
        if !order.inOrder, missing > 0 {
            state.pointee.slots.append(contentsOf: repeatElement(.empty, count: missing))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if state.pointee.opened == nil {
            writer.pointee.open(.array)
            state.pointee.opened = .array
        }
        return ArrayContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if state.pointee.opened == nil { state.pointee.opened = .single }
        return SingleContainer(encoder: self)
    }

    private func begin() {
        state.pointee.opened = nil
        state.pointee.layout = .moving
        state.pointee.order = nil
        state.pointee.view = nil
        state.pointee.keyType = nil
        state.pointee.arrived = 0
        if !state.pointee.members.isEmpty { state.pointee.members.removeAll(keepingCapacity: true) }
        state.pointee.hasChild = false
    }

    /// Starts the member `key` of the open object. Returns nil when its value is to be written
    /// now, or the sorted place where it is to be kept (`keep`).
    func member(_ key: String) -> Int? {
        if state.pointee.hasChild { finishChild() }
        let index = state.pointee.arrived
        state.pointee.arrived = index + 1
        switch state.pointee.layout {
        case .direct:
            guard let view = state.pointee.view, index < view.count, view.keys[index] == key else { break }
            writer.pointee.key(line: view.line(index))
            return nil
        case .kept:
            guard let view = state.pointee.view, index < view.count, view.keys[index] == key else { break }
            return view.rank[index]
        case .learning, .moving:
            state.pointee.members.append((key, writer.pointee.buffer.count))
            writer.pointee.key(key)
            return nil
        }
        // This object left the learnt order: its members so far are written in the order they
        // came, and all of them will be sorted by moving bytes.
        leaveLearntOrder(before: index)
        state.pointee.members.append((key, writer.pointee.buffer.count))
        writer.pointee.key(key)
        return nil
    }

    /// Turns the open object, `count` members in, from `direct` or `kept` into `moving`.
    private func leaveLearntOrder(before count: Int) {
        guard let order = state.pointee.order, let view = state.pointee.view else { return }
        switch state.pointee.layout {
        case .direct:
            let starts = writer.pointee.memberStarts(from: state.pointee.objectStart)
            state.pointee.members = zip(order.keys[..<count], starts).map { ($0, $1) }
        case .kept:
            for index in 0..<count {
                let place = view.rank[index]
                let slot = state.pointee.slots[place]
                state.pointee.slots[place] = .empty
                state.pointee.members.append((order.keys[index], writer.pointee.buffer.count))
                writer.pointee.key(line: view.line(index))
                writeKept(slot)
            }
        case .learning, .moving:
            return
        }
        state.pointee.layout = .moving
        state.pointee.order = nil
        state.pointee.view = nil
    }

    /// Keeps the value of the member at sorted place `place` until the object closes.
    func keep(_ slot: Slot, at place: Int) {
        state.pointee.slots[place] = slot
    }

    /// Starts a member whose value is a container nested here, filled by the encoder returned.
    func nestedMember(_ key: String) -> RecordEncoder {
        // The nested container is written as it is filled, so the members before it cannot
        // wait for the object to close: it is sorted by moving bytes instead.
        if state.pointee.layout == .kept { leaveLearntOrder(before: state.pointee.arrived) }
        _ = member(key)  // not `kept` any more: the member is started here, not kept
        return child()
    }

    /// Starts the next element of the open array.
    func element() {
        if state.pointee.hasChild { finishChild() }
        writer.pointee.element()
    }

    /// `inner`, started afresh as the encoder of a container nested here.
    func child() -> RecordEncoder {
        let nested = inner
        nested.begin()
        state.pointee.hasChild = true
        return nested
    }

    private func writeKept(_ slot: Slot) {
        switch slot {
        case .empty: break
        case .null: writer.pointee.null()
        case .string(let value): writer.pointee.string(value)
        case .int(let value): writer.pointee.int(value)
        case .double(let value): writer.pointee.double(value)
        case .bool(let value): writer.pointee.bool(value)
        case .value(let value): inner.write(value)
        }
    }

    /// Closes what this encoder opened (a value that encoded nothing is written as `null`),
    /// its object's members in key order.
    func finish() {
        if state.pointee.hasChild { finishChild() }
        switch state.pointee.opened {
        case .none: writer.pointee.null()
        case .object?:
            switch state.pointee.layout {
            case .learning:
                writer.pointee.sortMembers(state.pointee.members)
                if let keyType = state.pointee.keyType, shared.orders[keyType] == nil {
                    shared.orders[keyType] = KeyOrder(state.pointee.members.map(\.key))
                }
            case .moving:
                writer.pointee.sortMembers(state.pointee.members)
            case .direct:
                break
            case .kept:
                guard let view = state.pointee.view else { break }
                for place in 0..<view.count {
                    let slot = state.pointee.slots[place]
                    if case .empty = slot { continue }
                    state.pointee.slots[place] = .empty
                    writer.pointee.key(line: view.line(place, sorted: true))
                    writeKept(slot)
                }
            }
            writer.pointee.close(.object)
        case .array?: writer.pointee.close(.array)
        case .single?: break
        }
    }

    /// Lets go of what this level and the ones below keep (containers that hold them).
    func forget() {
        state.pointee.recent.removeAll()
        state.pointee.recentKeys.removeAll()
        nextLevel?.forget()
    }

    private func finishChild() {
        state.pointee.hasChild = false
        nextLevel?.finish()
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.null, at: place) }
        encoder.writer.pointee.null()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.value(value), at: place) }
        encoder.inner.write(value)
    }

    // The primitives the records hold, written (or kept) without the generic path's casts.
    mutating func encode(_ value: String, forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.string(value), at: place) }
        encoder.writer.pointee.string(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.int(value), at: place) }
        encoder.writer.pointee.int(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.double(value), at: place) }
        encoder.writer.pointee.double(value)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if let place = encoder.member(key.stringValue) { return encoder.keep(.bool(value), at: place) }
        encoder.writer.pointee.bool(value)
    }

    // Absent optionals are written as `null`: every overload the synthesized code may call.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.nestedMember(key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.nestedMember(key.stringValue).unkeyedContainer()
    }

    /// Under the key `super`, as JSONEncoder does.
    mutating func superEncoder() -> any Encoder {
        encoder.nestedMember("super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nestedMember(key.stringValue)
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(encoder: RecordEncoder) {
        self.encoder = encoder
    }

    mutating func encodeNil() throws {
        encoder.element()
        encoder.writer.pointee.null()
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.element()
        encoder.inner.write(value)
        count += 1
    }

    mutating func encode(_ value: String) throws {
        encoder.element()
        encoder.writer.pointee.string(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.element()
        count += 1
        return encoder.child().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.element()
        count += 1
        return encoder.child().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.element()
        count += 1
        return encoder.child()
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.writer.pointee.null() }
    mutating func encode(_ value: String) throws { encoder.writer.pointee.string(value) }
    mutating func encode(_ value: Int) throws { encoder.writer.pointee.int(value) }
    mutating func encode(_ value: Double) throws { encoder.writer.pointee.double(value) }
    mutating func encode(_ value: Bool) throws { encoder.writer.pointee.bool(value) }

    /// Any other value (an optional's, an integer of another width, a record) is written in
    /// this one's place.
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.inner.write(value) }
}
