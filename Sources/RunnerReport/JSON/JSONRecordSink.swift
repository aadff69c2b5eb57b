import Foundation
import RunnerResults

/// The JSON report's side of a record the evidence writes of itself (`Evidence.record(into:)`):
/// its members straight into the report's `JSONWriter`, values from the run redacted, each
/// hop's curl line for a result that did not pass.
struct JSONRecordSink: ~Copyable, RecordSink {
    private var writer: JSONWriter
    private let redactor: Redactor
    private let reproducing: Bool
    /// The report's renderings of parts that repeat across results.
    private let repeatedParts: RepeatedParts
    /// The report's renderings of each record type's keys.
    private let keyLines: RecordKeyLines

    /// Writes into `writer`, which the sink owns until `finish()` hands it back.
    init(
        writing writer: consuming JSONWriter, redactor: Redactor, reproducing: Bool, repeatedParts: RepeatedParts,
        keyLines: RecordKeyLines
    ) {
        self.writer = writer
        self.redactor = redactor
        self.reproducing = reproducing
        self.repeatedParts = repeatedParts
        self.keyLines = keyLines
    }

    /// Each key's separator, indent and quoted name copied in one piece from `keyLines`.
    mutating func object<Key: CodingKey & CaseIterable>(of _: Key.Type, _ member: (Key, inout JSONRecordSink) -> Void) {
        writer.open(.object)
        let lines = keyLines.lines(of: Key.self, layout: writer.layout)
        var index = 0
        for key in Key.allCases {
            writer.key(line: lines.line(index))
            member(key, &self)
            index += 1
        }
        writer.close(.object)
    }

    consuming func finish() -> JSONWriter {
        writer
    }

    mutating func key(_ name: String) {
        writer.key(name)
    }

    mutating func beginObject() {
        writer.open(.object)
    }

    mutating func endObject() {
        writer.close(.object)
    }

    mutating func beginArray() {
        writer.open(.array)
    }

    mutating func endArray() {
        writer.close(.array)
    }

    mutating func element() {
        writer.element()
    }

    mutating func value(_ value: String?) {
        guard let value else { return writer.null() }
        // Without secrets (most runs) the value as it is, without a redacted copy.
        if redactor.isEmpty { writer.string(value) } else { writer.string(redactor.redact(value)) }
    }

    mutating func word(_ text: String?) {
        writer.string(text)
    }

    mutating func number(_ value: Int?) {
        writer.int(value)
    }

    mutating func flag(_ value: Bool?) {
        writer.bool(value)
    }

    mutating func milliseconds(_ duration: Duration?) {
        writer.double(duration.map { Format.millisecondsValue($0) })
    }

    mutating func timestamp(_ date: Date?) {
        writer.string(date.map(Format.timestamp))
    }

    mutating func repeated<Part: Equatable>(_ part: Part, _ record: (Part, inout JSONRecordSink) -> Void) {
        let secrets = redactor.secretsAdded
        if writer.writeAgain(part, from: repeatedParts, secrets: secrets) { return }
        let start = writer.count
        record(part, &self)
        writer.keep(part, from: start, in: repeatedParts, secrets: secrets)
    }

    mutating func reproduction(of hop: HopEvidence, in evidence: Evidence) {
        writer.string(reproducing ? CurlCommand.line(hop, of: evidence, redactor: redactor) : nil)
    }
}

/// What `JSONWriter.key` writes for each key of a record type (`MemberLines`), per key type and
/// layout, made for the first object of the type: a key is then one copy, not its name scanned
/// for escapes and written piece by piece (a result has some fifty keys). One per report,
/// which renders on one thread at a time.
final class RecordKeyLines {
    private struct Entry {
        let keyType: ObjectIdentifier
        let layout: Int
        let lines: MemberLines
    }

    /// A handful of key types, in two layouts at most: a look along them costs less than hashing.
    private var entries: [Entry] = []

    init() {}

    /// The lines of `Key`'s keys, in `Key.allCases`'s order, for an object in `layout`
    /// (`JSONWriter.layout`, taken inside the object); valid while this lives.
    func lines<Key: CodingKey & CaseIterable>(of _: Key.Type, layout: Int) -> MemberLines.View {
        let keyType = ObjectIdentifier(Key.self)
        for entry in entries where entry.keyType == keyType && entry.layout == layout {
            return entry.lines.view
        }
        let keys = Key.allCases.map(\.stringValue)
        let made = MemberLines(keys, rank: Array(keys.indices), depth: layout)
        entries.append(Entry(keyType: keyType, layout: layout, lines: made))
        return made.view
    }
}
