/// Writes a report record through its `Encodable` conformance straight into a `JSONWriter`, so a
/// record's stored properties and `CodingKeys` are the one description of its JSON fields: the
/// report writes them from it, and the tests read reports back through the same conformance.
///
/// Two rules differ from what JSONEncoder does with a synthesized conformance: an absent
/// optional is written as `null`, never left out (every documented key is always present), and
/// each object's keys come out sorted whatever order `encode(to:)` gives them.
enum JSONRecordEncoder {
    /// Writes `value` as the next value of `writer` (after a `key(_:)`, an `element()`, or at
    /// the top of a document or fragment).
    static func write<Value: Encodable>(_ value: Value, to writer: inout JSONWriter) {
        let output = Output(writer: writer)
        writer = JSONWriter()  // the output owns the bytes meanwhile, so writes do not copy them
        output.encode(value)
        writer = output.writer
    }
}

/// The writer being filled, shared by the encoders and containers of one `write`.
private final class Output {
    var writer: JSONWriter

    init(writer: JSONWriter) {
        self.writer = writer
    }

    /// One value: a primitive directly, anything else through its `encode(to:)`, its container
    /// closed once that returns (a value that encodes nothing is written as `null`).
    func encode<Value: Encodable>(_ value: Value) {
        switch value {
        case let string as String: writer.string(string)
        case let int as Int: writer.int(int)
        case let double as Double: writer.double(double)
        case let bool as Bool: writer.bool(bool)
        default:
            let encoder = RecordEncoder(output: self)
            // This encoder never throws, and the records' synthesized conformances throw only
            // what it throws.
            try? value.encode(to: encoder)
            encoder.finish()
        }
    }
}

/// The encoder one value's `encode(to:)` is given; it opens at most one container.
private final class RecordEncoder: Encoder {
    enum Opened {
        case object
        case array
        case single
    }

    let output: Output
    private(set) var opened: Opened?
    /// The open object's members: each key and where it starts in the bytes, to sort on close.
    private var members: [(key: String, start: Int)] = []
    /// A container nested in this one (`nestedContainer`, `superEncoder`), closed before this
    /// one's next member: a stream cannot go back, so a nested container is filled before
    /// its parent goes on (the records here nest none).
    private var child: RecordEncoder?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(output: Output) {
        self.output = output
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if opened == nil {
            output.writer.open(.object)
            opened = .object
        }
        return KeyedEncodingContainer(ObjectContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if opened == nil {
            output.writer.open(.array)
            opened = .array
        }
        return ArrayContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        opened = opened ?? .single
        return SingleContainer(encoder: self)
    }

    /// Starts the member `key` of the open object.
    func member(_ key: String) {
        finishChild()
        members.append((key, output.writer.bytes.count))
        output.writer.key(key)
    }

    /// Starts the next element of the open array.
    func element() {
        finishChild()
        output.writer.element()
    }

    /// An encoder for a container nested here, after its member or element has been started.
    func nested() -> RecordEncoder {
        let nested = RecordEncoder(output: output)
        child = nested
        return nested
    }

    /// Closes what this encoder opened (a value that encoded nothing is written as `null`),
    /// sorting an object's members by key.
    func finish() {
        finishChild()
        switch opened {
        case .none: output.writer.null()
        case .object?:
            output.writer.sortMembers(members)
            output.writer.close()
        case .array?: output.writer.close()
        case .single?: break
        }
    }

    private func finishChild() {
        child?.finish()
        child = nil
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.writer.null()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.encode(value)
    }

    // The primitives the records hold, written without the generic path's dynamic casts.
    mutating func encode(_ value: String, forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.writer.string(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.writer.int(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.writer.double(value)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        encoder.member(key.stringValue)
        encoder.output.writer.bool(value)
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
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value.map(Double.init), key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value.map(Int.init), key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.member(key.stringValue)
        return encoder.nested().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.member(key.stringValue)
        return encoder.nested().unkeyedContainer()
    }

    /// Under the key `super`, as JSONEncoder does.
    mutating func superEncoder() -> any Encoder {
        encoder.member("super")
        return encoder.nested()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.member(key.stringValue)
        return encoder.nested()
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
        encoder.output.writer.null()
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.element()
        encoder.output.encode(value)
        count += 1
    }

    mutating func encode(_ value: String) throws {
        encoder.element()
        encoder.output.writer.string(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.element()
        count += 1
        return encoder.nested().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.element()
        count += 1
        return encoder.nested().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.element()
        count += 1
        return encoder.nested()
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.output.writer.null() }

    mutating func encode<T: Encodable>(_ value: T) throws { encoder.output.encode(value) }
}
