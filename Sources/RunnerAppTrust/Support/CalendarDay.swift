import Foundation

/// A `yyyy-MM-dd` date, strictly: four digits, two, two, a day that exists.
struct CalendarDay: Sendable, Hashable {
    let text: String
    /// Midnight starting that day, UTC (the device's zone is not known here).
    let midnightUTC: Date

    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        // Calendar rolls 2026-02-30 over to March: a day that does not exist is refused.
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        self.text = text
        midnightUTC = date
    }

    /// Whether `now` is at or past the day's start.
    func hasStarted(at now: Date) -> Bool { now >= midnightUTC }
}
