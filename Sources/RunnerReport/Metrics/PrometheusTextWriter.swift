/// Prometheus' text exposition format (version 0.0.4), written as bytes: `# HELP` and `# TYPE`
/// lines, samples, label values escaped, numbers without a `String` each (an exposition of
/// 40,000 results has some 700,000 samples).
struct PrometheusTextWriter: ~Copyable {
    private(set) var buffer: ByteBuffer
    /// The labels every sample ends with, written by `label(_:_:into:start:)` (empty for none).
    private let constantLabels: [UInt8]

    init(constantLabels: [UInt8] = [], capacity: Int = 256 * 1024) {
        self.constantLabels = constantLabels
        buffer = ByteBuffer(capacity: capacity)
    }

    /// `# HELP` and `# TYPE` of a family, written once before its samples.
    mutating func header(_ family: MetricFamily) {
        buffer.append("# HELP ")
        buffer.append(utf8: family.name)
        buffer.append(UInt8(ascii: " "))
        // Help texts are the runner's own literals: no backslash or newline to escape.
        buffer.append(utf8: family.help)
        buffer.append("\n# TYPE ")
        buffer.append(utf8: family.name)
        buffer.append(UInt8(ascii: " "))
        buffer.append(utf8: family.type.rawValue)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// One sample: `NAME{LABELS,EXTRA,CONSTANT LABELS} VALUE`. `labels` is a label list
    /// already written by `label(_:_:into:start:)` (empty for none); `extra`, one more label of
    /// the family's own (`phase`, `status`).
    /// `more`: the family's own labels whose values vary (`cipher`), written by
    /// `label(_:_:into:start:)` like `labels`.
    mutating func sample(
        _ family: MetricFamily, labels: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
        extra: (name: StaticString, value: StaticString)? = nil,
        more: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), value: Double
    ) {
        buffer.append(family.nameBytes)
        if !labels.isEmpty || extra != nil || !more.isEmpty || !constantLabels.isEmpty {
            buffer.append(UInt8(ascii: "{"))
            buffer.append(labels)
            var separate = !labels.isEmpty
            if !more.isEmpty {
                if separate { buffer.append(UInt8(ascii: ",")) }
                buffer.append(more)
                separate = true
            }
            if let extra {
                if separate { buffer.append(UInt8(ascii: ",")) }
                buffer.append(extra.name)
                buffer.append("=\"")
                buffer.append(extra.value)
                buffer.append(UInt8(ascii: "\""))
                separate = true
            }
            if !constantLabels.isEmpty {
                if separate { buffer.append(UInt8(ascii: ",")) }
                buffer.append(constantLabels)
            }
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: " "))
        Self.value(value, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Hands what has been written so far to `output` and empties the writer.
    mutating func drain(into output: inout FileOutput) {
        buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer($0)) }
        buffer.removeAll()
    }

    // MARK: Pieces

    /// `name="value"` at the end of `bytes`, with `,` before it when `bytes` already holds a
    /// label from `start` on; the value escaped as the format asks: `\` as `\\`, `"` as `\"`
    /// and a newline as `\n` (everything else, other control characters included, is allowed).
    static func label(_ name: String, _ value: String, into bytes: inout ByteBuffer, start: Int) {
        if bytes.count > start { bytes.append(UInt8(ascii: ",")) }
        bytes.append(utf8: name)
        bytes.append("=\"")
        ByteText.withUTF8(value) { escapeLabelValue($0, into: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    static func escapeLabelValue(_ value: UnsafeBufferPointer<UInt8>, into bytes: inout ByteBuffer) {
        var clean = 0
        for index in value.indices {
            let escaped: StaticString
            switch value[index] {
            case UInt8(ascii: "\\"): escaped = "\\\\"
            case UInt8(ascii: "\""): escaped = "\\\""
            case UInt8(ascii: "\n"): escaped = "\\n"
            default: continue
            }
            bytes.append(UnsafeBufferPointer(rebasing: value[clean..<index]))
            bytes.append(escaped)
            clean = index + 1
        }
        bytes.append(UnsafeBufferPointer(rebasing: value[clean...]))
    }

    /// A sample value as Go's `strconv.ParseFloat` (Prometheus' parser) reads it: a whole
    /// number as its digits (`200`, `1751327999`), any other to the microsecond with trailing
    /// zeros dropped (`0.0801`; durations are measured in microseconds), `NaN`, `+Inf`, `-Inf`.
    static func value(_ value: Double, to bytes: inout ByteBuffer) {
        // Most samples are flags and zero phases: half the exposition's values.
        if value == 0 || value == 1 {
            bytes.append(value == 0 ? UInt8(ascii: "0") : UInt8(ascii: "1"))
            return
        }
        guard value.isFinite else {
            bytes.append(value.isNaN ? "NaN" : value < 0 ? "-Inf" : "+Inf")
            return
        }
        let magnitude = value.magnitude
        // Beyond this the microseconds overflow Int64 (and a metric this large is no duration).
        guard magnitude < 1e12 else {
            bytes.append(utf8: value.description)
            return
        }
        let micros = UInt64((magnitude * 1_000_000).rounded())
        if value < 0 && micros > 0 { bytes.append(UInt8(ascii: "-")) }
        ByteText.digits(micros / 1_000_000, to: &bytes)
        var fraction = micros % 1_000_000
        guard fraction > 0 else { return }
        var width = 6
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        ByteText.padded(Int(fraction), width: width, to: &bytes)
    }
}
