import Foundation
import Testing

@testable import RunnerPlan

/// The byte-level value parsers against straightforward reference versions (the earlier,
/// slower code): same answer for every input, on a grid of awkward ones.
@Suite("Value parsers match their reference")
struct ParserEquivalenceTests {
    private static let signs = ["", "-", "+", "--"]
    private static let numbers = [
        "", "0", "5", "007", "250", "1.5", "5.", ".5", ".", "1.2.3", "123456789012345", "1234567890123456",
        "99999999999999", "999999999999", "9223372036854775807", "9223372036854775808", "0.0000001", "1e3", "١",
    ]
    private static let units = ["", "ms", "s", "m", "h", " s", "S", "mss", "µs", "x", "\u{301}s"]

    @Test("durations")
    func durations() {
        for sign in Self.signs {
            for number in Self.numbers {
                for unit in Self.units {
                    let text = sign + number + unit
                    #expect(PlanDecoder.parseDuration(text) == Self.referenceDuration(text), "\(text)")
                }
            }
        }
    }

    @Test("integers")
    func integers() {
        for sign in Self.signs {
            for number in Self.numbers {
                for suffix in ["", " ", "x", "0"] {
                    let text = sign + number + suffix
                    #expect(PlanDecoder.parseInteger(text) == Self.referenceInteger(text), "\(text)")
                }
            }
        }
    }

    @Test("status classes")
    func statusClasses() {
        for text in ["2xx", "2XX", "5xX", "1xx", "0xx", "6xx", "2x", "2xxx", "xxx", "", "200", "２xx", "2x\u{301}"] {
            #expect(PlanDecoder.statusClass(text) == Self.referenceStatusClass(text), "\(text)")
        }
    }

    private static func referenceDuration(_ text: String) -> PlanDecoder.DurationParse {
        let utf8 = Array(text.utf8)
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0
        var sawPoint = false
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return .invalid }
        let nanosecondsPerUnit: Double
        switch String(decoding: utf8[index...], as: UTF8.self) {
        case "ms": nanosecondsPerUnit = 1e6
        case "s": nanosecondsPerUnit = 1e9
        case "m": nanosecondsPerUnit = 60e9
        case "h": nanosecondsPerUnit = 3600e9
        case "d": nanosecondsPerUnit = 86_400e9
        default: return .invalid
        }
        guard let number = Double(String(decoding: utf8[..<index], as: UTF8.self)) else { return .invalid }
        let nanoseconds = (number * nanosecondsPerUnit).rounded()
        guard nanoseconds >= 1 else { return .notPositive }
        guard nanoseconds < 1e18 else { return .tooLarge }
        return .valid(.nanoseconds(Int64(nanoseconds)))
    }

    private static func referenceInteger(_ text: String) -> Int? {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        guard !utf8.isEmpty else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    private static func referenceStatusClass(_ text: String) -> Int? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(utf8[0]),
              utf8[1] | 0x20 == UInt8(ascii: "x"), utf8[2] | 0x20 == UInt8(ascii: "x")
        else { return nil }
        return Int(utf8[0] - UInt8(ascii: "0"))
    }
}
