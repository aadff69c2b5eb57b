import Foundation

/// Parses the `Expires` value of a `Set-Cookie` header with RFC 6265 §5.1.1's lenient algorithm.
///
/// The algorithm reads RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`), asctime (`Sun Nov  6 08:49:37 1994`) and the many
/// variants servers really send; the time zone is ignored (cookie dates are always UTC).
enum CookieDate {
    /// The instant `text` denotes, or nil when it is not a cookie date.
    static func parse(_ text: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        for token in tokens(of: Array(text.utf8)) {
            if time == nil, let found = matchTime(token) {
                time = found
            } else if dayOfMonth == nil, let found = matchDigits(token, min: 1, max: 2) {
                dayOfMonth = found
            } else if month == nil, let found = matchMonth(token) {
                month = found
            } else if year == nil, let found = matchDigits(token, min: 2, max: 4) {
                year = found
            }
        }

        guard let time, let dayOfMonth, let month, var year else { return nil }
        // Two-digit years: 70–99 are 19xx, 00–69 are 20xx.
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(dayOfMonth), year >= 1601,
            time.hour <= 23, time.minute <= 59, time.second <= 59,
            dayOfMonth <= daysIn(month: month, year: year)
        else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: dayOfMonth)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    // MARK: - Tokens and productions

    /// Splits at the delimiters of §5.1.1: HTAB, 0x20–0x2F, 0x3B–0x40, 0x5B–0x60, 0x7B–0x7E.
    private static func tokens(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `min*max DIGIT ( non-digit *OCTET )`: the leading digits, when they are followed by nothing
    /// or by a non-digit.
    private static func matchDigits(_ token: ArraySlice<UInt8>, min: Int, max: Int) -> Int? {
        let digits = token.prefix(while: isDigit)
        guard (min...max).contains(digits.count) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time ( non-digit *OCTET )`, with `hms-time = 1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT`.
    private static func matchTime(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token
        var fields: [Int] = []
        for index in 0..<3 {
            let digits = rest.prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(digits.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `month *OCTET`: the first three characters name a month, case-insensitively.
    private static func matchMonth(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        // ASCII lower-casing of the first three bytes; other bytes cannot spell a month.
        let prefix = token.prefix(3).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        let name = String(decoding: prefix, as: UTF8.self)
        return monthNames.firstIndex(of: name).map { $0 + 1 }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
