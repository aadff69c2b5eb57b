import Foundation

/// SplitMix64: a small deterministic generator, so random test inputs are the same every run
/// and a failing one can be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// The seed for a test that draws at random: `RUNNER_TEST_SEED` when set (to replay a
    /// failure), else the test's fixed one; printed either way, so a failing run says it.
    public static func seed(_ fixed: UInt64, for test: String) -> UInt64 {
        let chosen = ProcessInfo.processInfo.environment["RUNNER_TEST_SEED"].flatMap { UInt64($0) } ?? fixed
        print("\(test): seed \(chosen) (RUNNER_TEST_SEED=\(chosen) replays it)")
        return chosen
    }
}
