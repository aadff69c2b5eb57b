import Foundation
import Testing
@testable import RunnerCapture

/// `long-date-fraction`: ICU, under ISO8601DateFormatter, divided by zero on a 50-digit fraction.
@Suite struct HARDateShapeTests {
    @Test(arguments: [
        "1013-11-27T10:00:00.12311111111111111111111111111111111111111111111111Z", "2026-11-27", "2026-11-27T10:00:00",
        "2026-11-27T10:00:00.Z", "2026-11-27T10:00:00+1", "x026-11-27T10:00:00Z", "",
    ])
    func outsideTheShapeIsNoDate(text: String) throws {
        let entry = HARFixture.entry().replacingOccurrences(of: "2026-11-27T10:00:00.123Z", with: text)
        let read = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first)
        #expect(read.startedDateTime == nil)
        #expect(read.startedDateTimeText == text)
    }

    @Test(arguments: ["2026-11-27T10:00:00Z", "2026-11-27T11:00:00.000+01:00", "2026-11-27T11:00:00+0100", "2026-11-27T10:00:00.000000Z"])
    func theToolsSpellingsParse(text: String) throws {
        let entry = HARFixture.entry().replacingOccurrences(of: "2026-11-27T10:00:00.123Z", with: text)
        let read = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first)
        #expect(read.startedDateTime == Date(timeIntervalSince1970: 1_795_773_600))
    }
}
