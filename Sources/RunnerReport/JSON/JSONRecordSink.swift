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

    /// Writes into `writer`, which the sink owns until `finish()` hands it back.
    init(writing writer: consuming JSONWriter, redactor: Redactor, reproducing: Bool, repeatedParts: RepeatedParts) {
        self.writer = writer
        self.redactor = redactor
        self.reproducing = reproducing
        self.repeatedParts = repeatedParts
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
        writer.string(value.map(redactor.redact))
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
        let secrets = redactor.formsMasked
        if writer.writeAgain(part, from: repeatedParts, secrets: secrets) { return }
        let start = writer.count
        record(part, &self)
        writer.keep(part, from: start, in: repeatedParts, secrets: secrets)
    }

    mutating func reproduction(of hop: HopEvidence, in evidence: Evidence) {
        writer.string(reproducing ? CurlCommand.line(hop, of: evidence, redactor: redactor) : nil)
    }
}
