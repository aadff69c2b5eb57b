import Foundation

/// The pins an Android app gives OkHttp's `CertificatePinner` in code, in OkHttp's syntax
/// (`pattern → ["sha256/BASE64", "sha1/BASE64"…]`).
public struct OkHttpPins: Sendable, Hashable {
    public var patterns: [OkHttpPinPattern]

    /// Checks each entry as `CertificatePinner.Builder.add` does: `*` only as a leading `*.` or
    /// `**.`; each pin `sha256/` or `sha1/` and the base64 of a digest of that hash's length.
    /// Non-ASCII patterns are refused here (OkHttp converts them to punycode; give that form).
    public init(patterns: [(pattern: String, pins: [String])]) throws(OkHttpPinsError) {
        var checked: [OkHttpPinPattern] = []
        for (index, entry) in patterns.enumerated() {
            let pattern = HostName.lowercased(entry.pattern)
            try Self.checkPattern(pattern, original: entry.pattern, index: index)
            var sha256: [String] = []
            var sha1: [String] = []
            for (pinIndex, pin) in entry.pins.enumerated() {
                func refuse(_ message: String) -> OkHttpPinsError {
                    OkHttpPinsError(pattern: entry.pattern, patternIndex: index, pinIndex: pinIndex, message: message)
                }
                let (algorithm, length, value): (String, Int, Substring)
                if pin.hasPrefix("sha256/") {
                    (algorithm, length, value) = ("sha256", 32, pin.dropFirst(7))
                } else if pin.hasPrefix("sha1/") {
                    (algorithm, length, value) = ("sha1", 20, pin.dropFirst(5))
                } else {
                    throw refuse("pins must start with 'sha256/' or 'sha1/': \(pin)")
                }
                switch PinValue.check(String(value), length: length) {
                case .success(let digest):
                    if algorithm == "sha256" { sha256.append(digest) } else { sha1.append(digest) }
                case .failure(.notBase64):
                    throw refuse("invalid pin hash: \(pin) (not base64)")
                case .failure(.wrongLength(let decoded)):
                    throw refuse("invalid pin hash: \(pin) (\(decoded) bytes, a \(algorithm) digest is \(length))")
                }
            }
            checked.append(OkHttpPinPattern(pattern: pattern, sha256Pins: sha256, sha1Pins: sha1, index: index))
        }
        self.patterns = checked
    }

    private static func checkPattern(_ pattern: String, original: String, index: Int) throws(OkHttpPinsError) {
        func refuse(_ message: String) -> OkHttpPinsError {
            OkHttpPinsError(pattern: original, patternIndex: index, pinIndex: nil, message: message)
        }
        let body: Substring
        if pattern.hasPrefix("**.") {
            body = pattern.dropFirst(3)
        } else if pattern.hasPrefix("*.") {
            body = pattern.dropFirst(2)
        } else {
            body = Substring(pattern)
        }
        if body.contains("*") { throw refuse("unexpected pattern: \(original) (`*` only as a leading `*.` or `**.`)") }
        if body.isEmpty || !body.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F })
            || body.hasPrefix(".") || body.contains("..") || body.contains("/") {
            throw refuse("invalid pattern: \(original)")
        }
    }
}
