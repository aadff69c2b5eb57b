/// One `CertificatePinner` pattern: an exact host, `*.suffix` (exactly one label, possibly
/// empty) or `**.suffix` (zero or more labels); lower-cased as OkHttp keeps it.
public struct OkHttpPinPattern: Sendable, Hashable {
    public var pattern: String
    public var sha256Pins: [String]
    public var sha1Pins: [String]
    /// The pattern's index in the list given to `OkHttpPins`.
    public var index: Int

    public init(pattern: String, sha256Pins: [String], sha1Pins: [String], index: Int) {
        self.pattern = pattern
        self.sha256Pins = sha256Pins
        self.sha1Pins = sha1Pins
        self.index = index
    }

    /// OkHttp's `Pin.matchesHostname` for a lower-cased host name.
    func matches(_ host: String) -> Bool {
        if pattern.hasPrefix("**.") {
            let suffix = pattern.dropFirst(3)
            return host == suffix || host.hasSuffix("." + suffix)
        }
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst(1)  // keeps the dot: `.example.com`
            guard host.hasSuffix(suffix) else { return false }
            return !host.dropLast(suffix.count).contains(".")
        }
        return host == pattern
    }
}
