import Foundation

/// Number, date and duration formatting shared by every report, independent of the locale
/// (reports are parsed by machines: `1.5`, never `1,5`).
enum Format {
    /// Seconds with 3 decimals, e.g. `1.234` (the JUnit `time` attribute).
    static func seconds(_ value: Double) -> String { fixed(value, decimals: 3) }

    /// Seconds shown as milliseconds with 3 decimals, e.g. `12.345`.
    static func milliseconds(_ seconds: Double) -> String { fixed(seconds * 1000, decimals: 3) }

    /// Seconds as milliseconds rounded to the microsecond, for JSON numbers.
    static func millisecondsValue(_ seconds: Double) -> Double {
        (clamp(seconds * 1000) * 1000).rounded() / 1000
    }

    /// A duration in seconds with 3 decimals (the JUnit `time` attribute).
    static func seconds(_ duration: Duration) -> String { seconds(duration.inSeconds) }

    /// A duration as milliseconds with 3 decimals, e.g. `12.345`.
    static func milliseconds(_ duration: Duration) -> String { milliseconds(duration.inSeconds) }

    /// A duration as milliseconds rounded to the microsecond, for JSON numbers.
    static func millisecondsValue(_ duration: Duration) -> Double { millisecondsValue(duration.inSeconds) }

    /// A duration a person reads at a glance: `850 ms`, `12.35 s`.
    static func human(_ duration: Duration) -> String { human(duration.inSeconds) }

    /// Seconds a person reads at a glance: `850 ms`, `12.35 s`.
    static func human(_ seconds: Double) -> String {
        let value = clamp(seconds)
        return value < 1 ? "\(fixed(value * 1000, decimals: 0)) ms" : "\(fixed(value, decimals: 2)) s"
    }

    /// ISO 8601 in UTC to the second, e.g. `2024-05-01T10:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        // By hand from gmtime_r: Foundation's ISO 8601 style costs tens of microseconds a call,
        // and every hop's certificate expiry is rendered.
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return date.formatted(Date.ISO8601FormatStyle()) }
        let year = Int(parts.tm_year) + 1900
        if (0...9999).contains(year) {
            // The usual case, straight into the string's 20 bytes (one allocation, no pieces).
            return String(unsafeUninitializedCapacity: 20) { bytes in
                var at = 0
                func put(_ value: Int, width: Int, then separator: UInt8?) {
                    var rest = value
                    for place in stride(from: at + width - 1, through: at, by: -1) {
                        bytes[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    }
                    at += width
                    if let separator {
                        bytes[at] = separator
                        at += 1
                    }
                }
                put(year, width: 4, then: UInt8(ascii: "-"))
                put(Int(parts.tm_mon) + 1, width: 2, then: UInt8(ascii: "-"))
                put(Int(parts.tm_mday), width: 2, then: UInt8(ascii: "T"))
                put(Int(parts.tm_hour), width: 2, then: UInt8(ascii: ":"))
                put(Int(parts.tm_min), width: 2, then: UInt8(ascii: ":"))
                put(Int(parts.tm_sec), width: 2, then: UInt8(ascii: "Z"))
                return at
            }
        }
        return padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-"
            + padded(Int(parts.tm_mday), 2) + "T" + padded(Int(parts.tm_hour), 2) + ":"
            + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2) + "Z"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `SIGINT`, `SIGTERM`, or `signal N`.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// `signalName`'s text back to the number (a report read back by `runner merge`).
    static func signal(named name: String) -> Int32? {
        switch name {
        case "SIGINT": SIGINT
        case "SIGTERM": SIGTERM
        default: name.hasPrefix("signal ") ? Int32(name.dropFirst("signal ".count)) : nil
        }
    }

    /// `1 result`, `2 results`.
    static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }

    /// Fixed-point rendering with `decimals` (0...3) digits after the point. Negative, NaN and
    /// infinite values become 0 (the JUnit time pattern has no sign) and huge ones are capped,
    /// so the integer arithmetic below cannot overflow.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var bytes = ByteBuffer(capacity: 32)
        fixed(value, decimals: decimals, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// As `fixed(_:decimals:)`, appended to `bytes` (the reports' hot path: no `String` made).
    static func fixed(_ value: Double, decimals: Int, to bytes: inout ByteBuffer) {
        let places = min(max(decimals, 0), 3)
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let units = Int((clamp(value) * Double(scale)).rounded())
        ByteText.decimal(units / scale, to: &bytes)
        guard places > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        ByteText.padded(units % scale, width: places, to: &bytes)
    }

    /// `seconds(_:)` appended to `bytes`.
    static func seconds(_ value: Double, to bytes: inout ByteBuffer) { fixed(value, decimals: 3, to: &bytes) }

    /// `milliseconds(_:)` appended to `bytes`.
    static func milliseconds(_ seconds: Double, to bytes: inout ByteBuffer) { fixed(seconds * 1000, decimals: 3, to: &bytes) }

    /// `seconds(_:)` of a duration appended to `bytes`.
    static func seconds(_ duration: Duration, to bytes: inout ByteBuffer) { seconds(duration.inSeconds, to: &bytes) }

    /// `milliseconds(_:)` of a duration appended to `bytes`.
    static func milliseconds(_ duration: Duration, to bytes: inout ByteBuffer) {
        fixed(duration.inMilliseconds, decimals: 3, to: &bytes)
    }

    private static func clamp(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 0 }
        return min(value, 1e12)
    }
}
