import RunnerHTTPDNS
import RunnerVocabulary

extension Shard {
    /// Whether this shard runs `scenario` of the plan named `plan`: the first 8 bytes of the
    /// SHA-256 of the two names (a 0 byte between), as a big-endian number, modulo the count.
    /// Only the two names decide, so a scenario stays in its shard when others come and go,
    /// on every machine and in every version that keeps this rule.
    public func holds(plan: String, scenario: String) -> Bool {
        Self.number(plan: plan, scenario: scenario) % UInt64(count) == UInt64(index - 1)
    }

    /// The names' hash as a number (also what the tests check against known values).
    static func number(plan: String, scenario: String) -> UInt64 {
        let bytes = Array(plan.utf8) + [0] + Array(scenario.utf8)
        // SHA-256 fails only when OpenSSL lacks it, and then nothing else of the run works
        // either; every scenario then falls in the first shard rather than in none.
        guard let digest = try? OpenSSLCrypto.sha256(bytes) else { return 0 }
        return digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
