import Foundation
import Testing
@testable import RunnerCapture

/// Bytes no tool wrote: an error or a capture, never a trap or a hang.
@Suite struct HARHostileInputTests {
    @Test func tenMegabytesOfGarbage() {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<10_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(HARFixture.refusal(bytes, path: "g.har") == "g.har: not JSON: not a HAR capture")
    }

    @Test func randomShortInputsAndTruncations() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = Data((0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(HARFixture.refusal(bytes, path: "r.har").hasPrefix("r.har: "))
        }
        let whole = HARFixture.log([HARFixture.entry(), HARFixture.entry(url: "http://[::1]:8/")])
        for length in 0...whole.count {
            _ = HARFixture.refusal(whole.prefix(length))
        }
    }

    @Test func deepNestingIsAnErrorOrAReadNotACrash() {
        let depth = 100_000
        let nested = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(HARFixture.refusal(nested, path: "d.har").hasPrefix("d.har: "))
        let inField = HARFixture.entry(extra: #""_deep": "# + String(repeating: "[", count: 400) + String(repeating: "]", count: 400))
        #expect(HARFixture.refusal(HARFixture.log([inField])) == "read 1 entries")
    }

    @Test func hugeNumbersForPortsAndStatus() {
        let entry = HARFixture.entry(extra: #""serverIPAddress": "10.0.0.1", "connection": 1e308, "_serverPort": "99999999999999999999""#)
        let capture = try? HARFixture.read(HARFixture.log([entry]))
        #expect(capture?.entries.first?.serverIPAddress == HARServerAddress(address: "10.0.0.1", port: nil))
    }
}
