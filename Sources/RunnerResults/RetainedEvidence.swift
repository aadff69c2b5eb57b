import Foundation

/// Why a result checked an address its map's service no longer returns: a map with `retain:`
/// remembered it (`--state`), and apps that cached it still connect there.
public struct RetainedEvidence: Sendable, Equatable {
    /// The map whose service returned it.
    public var map: String
    /// The population it was returned for; nil: as this machine.
    public var client: String?
    public var firstReturned: Date
    public var lastReturned: Date
    /// How long ago it was last returned, when the result was checked.
    public var age: Duration
    /// The map's `retain:`: how long after it was last returned it is checked.
    public var window: Duration

    public init(map: String, client: String?, firstReturned: Date, lastReturned: Date, age: Duration, window: Duration) {
        self.map = map
        self.client = client
        self.firstReturned = firstReturned
        self.lastReturned = lastReturned
        self.age = age
        self.window = window
    }

    /// `last returned by 'ali' for gd-mobile 3h12m ago`.
    public var summary: String {
        "last returned by '\(map)'" + (client.map { " for \($0)" } ?? "") + " \(Self.spoken(age)) ago"
    }

    /// `apps that cached it in the last 24h still connect here`: what a failing one's error adds.
    public var consequence: String {
        "apps that cached it in the last \(Self.spoken(window)) still connect here"
    }

    /// `3h12m`, `45s`, `2d3h`: the largest two units.
    public static func spoken(_ duration: Duration) -> String {
        let total = max(0, Int(duration.components.seconds))
        let parts: [(Int, String)] = [(total / 86_400, "d"), (total % 86_400 / 3600, "h"), (total % 3600 / 60, "m"), (total % 60, "s")]
        guard let first = parts.firstIndex(where: { $0.0 > 0 }) else { return "0s" }
        return parts[first...].prefix(2).filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    }
}
