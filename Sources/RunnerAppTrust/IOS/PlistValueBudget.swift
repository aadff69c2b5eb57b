import Foundation

/// How many more values a binary plist's decode may make, and how deep. A binary plist refers to
/// its objects by number: a few hundred bytes can repeat one object exponentially often (a
/// fuzzed file ran for minutes) or hold a cycle, which PropertyListDecoder follows until the
/// stack overflows. The decode stops past limits no Info.plist comes near.
final class PlistValueBudget: @unchecked Sendable {
    static let valueLimit = 100_000
    static let depthLimit = 64
    /// Where the decoder carries it (`PropertyListDecoder.userInfo`).
    static let key = CodingUserInfoKey(rawValue: "RunnerAppTrust.PlistValueBudget")

    private var values = 0
    private var depth = 0
    /// Whether a limit stopped the decode.
    private(set) var isSpent = false

    /// Enters one value; false past a limit (then `leave()` is not called).
    func enter() -> Bool {
        values += 1
        depth += 1
        if values > Self.valueLimit || depth > Self.depthLimit { isSpent = true }
        return !isSpent
    }

    func leave() {
        depth -= 1
    }
}
