import Foundation

/// Base64 SHA-256-sized values (32 bytes of one letter each) the tests pin, and helpers.
enum TestPins {
    static let a = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
    static let b = "QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI="
    static let c = "Q0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0M="
    static let d = "REREREREREREREREREREREREREREREREREREREREREQ="
    static let e = "RUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUU="
    /// 20 bytes: a SHA-1 digest's length.
    static let sha1 = "U1NTU1NTU1NTU1NTU1NTU1NTU1M="
    /// 31 bytes.
    static let short = "WFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWA=="

    /// The fixtures folder beside this file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// A UTC instant from `yyyy-MM-dd'T'HH:mm:ss'Z'`.
    static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }
}
