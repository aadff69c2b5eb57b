import Foundation

/// Where a report writes a result's evidence as a record (the JSON report), as the evidence
/// records itself (`Evidence.record(into:)`): the members of an object in the order given
/// (each record declares its keys sorted), an absent value as null. Read back through the
/// same records' keys (`Evidence`'s `Decodable` conformance), so a fact written is a fact read.
public protocol RecordSink: ~Copyable {
    /// Starts the next member of the innermost object.
    mutating func key(_ name: String)
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// Starts the next element of the innermost array.
    mutating func element()
    /// A value from the run (a server's, a certificate's, the plan's), redacted by the sink;
    /// nil: null.
    mutating func value(_ value: String?)
    /// Text the sink writes as it is: the runner's own words, a pin, what a resolver answered.
    mutating func word(_ text: String?)
    mutating func number(_ value: Int?)
    mutating func flag(_ value: Bool?)
    /// A duration, recorded as milliseconds rounded to the microsecond; nil: null.
    mutating func milliseconds(_ duration: Duration?)
    /// A date, recorded as `2024-05-01T10:00:00Z`; nil: null.
    mutating func timestamp(_ date: Date?)
    /// The hop's curl line when the report reproduces the result's requests (a result that did
    /// not pass, or the line a report recorded); null otherwise.
    mutating func reproduction(of hop: HopEvidence, in evidence: Evidence)
    /// A part that repeats across results (a connection's certificate, its TLS session),
    /// recorded by `record`; a sink may instead write again what it wrote for an equal part.
    mutating func repeated<Part: Equatable>(_ part: Part, _ record: (Part, inout Self) -> Void)
    /// An object with every key of `Key`, in their order, each member's value written by `member`
    /// (an exhaustive switch over the keys: a key added is a member the compiler asks for). A
    /// sink may write the keys from renderings it made once per key type.
    mutating func object<Key: CodingKey & CaseIterable>(of keys: Key.Type, _ member: (Key, inout Self) -> Void)
}

extension RecordSink where Self: ~Copyable {
    /// Records the part anew each time.
    @inlinable
    public mutating func repeated<Part: Equatable>(_ part: Part, _ record: (Part, inout Self) -> Void) {
        record(part, &self)
    }

    /// Each key written by `key(_:)`.
    @inlinable
    public mutating func object<Key: CodingKey & CaseIterable>(of _: Key.Type, _ member: (Key, inout Self) -> Void) {
        beginObject()
        for key in Key.allCases {
            self.key(key.stringValue)
            member(key, &self)
        }
        endObject()
    }

    /// A list, each element written by `write`.
    @inlinable
    public mutating func list<Element>(_ elements: [Element], _ write: (Element, inout Self) -> Void) {
        beginArray()
        for item in elements {
            element()
            write(item, &self)
        }
        endArray()
    }

    /// A list of values from the run, each redacted.
    @inlinable
    public mutating func values(_ list: [String]) {
        beginArray()
        for item in list {
            element()
            value(item)
        }
        endArray()
    }

    /// A list written as it is; nil: null.
    @inlinable
    public mutating func words(_ list: [String]?) {
        guard let list else { return word(nil) }
        beginArray()
        for item in list {
            element()
            word(item)
        }
        endArray()
    }
}

extension KeyedDecodingContainer {
    /// The list under `key`, each element read by `read` from its own object; empty when the
    /// key is missing or null (a field an older report does not have).
    func list<Element, ElementKey: CodingKey>(
        _ key: Key, keyedBy _: ElementKey.Type, _ read: (KeyedDecodingContainer<ElementKey>) throws -> Element
    ) throws -> [Element] {
        guard try contains(key) && !decodeNil(forKey: key) else { return [] }
        var list = try nestedUnkeyedContainer(forKey: key)
        var elements: [Element] = []
        while !list.isAtEnd {
            elements.append(try read(list.nestedContainer(keyedBy: ElementKey.self)))
        }
        return elements
    }

    /// A timestamp a record wrote (`2024-05-01T10:00:00Z`), nil when absent or null.
    func timestamp(_ key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) else {
            throw recordProblem(key, "'\(text)' is not a date in the form 2024-05-01T10:00:00Z")
        }
        return date
    }

    /// Why a record read back is not one the runner wrote: the key and what is wrong with it.
    func recordProblem(_ key: Key, _ message: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: message)
    }
}
