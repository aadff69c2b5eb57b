import RunnerPlan
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// The resolver's memory with times passed in: deduplication, TTL expiry to the nanosecond,
/// lookup times.
@Suite("Resolution cache: one lookup per key, reused while its TTL lasts", .timeLimit(.minutes(1)))
struct ResolutionCacheTests {
    typealias Cache = ResolutionCache<String>
    static let key = Cache.Key(map: "tencent", host: "api.example.com", family: .any)
    static let second: UInt64 = 1_000_000_000

    static func answer(_ ip: String) -> Result<Resolution, TransferError> {
        .success(Resolution(addresses: [IPAddress(ip)].compactMap { $0 }, source: "httpdns 'tencent'", lookupTime: .zero))
    }

    @Test("askers who come while a lookup runs wait for it, and all get its one answer")
    func concurrentAskersShareOneLookup() throws {
        var cache = Cache()
        #expect(cache.lookUp(Self.key, for: "a", now: 10 * Self.second).isStart)
        #expect(cache.lookUp(Self.key, for: "b", now: 10 * Self.second + 5).isJoined)
        #expect(cache.lookUp(Self.key, for: "c", now: 11 * Self.second).isJoined)
        let shared = cache.answered(Self.key, Self.answer("192.0.2.1"), ttl: 60, now: 10 * Self.second + 250_000_000)
        let (answer, waiters) = try #require(shared)
        #expect(waiters == ["a", "b", "c"])
        #expect(try answer.get().lookupTime == .milliseconds(250), "timed from the lookup's start")
    }

    @Test("an answer is served until its TTL ends, to the nanosecond, then looked up again")
    func ttlExpiry() throws {
        var cache = Cache()
        _ = cache.lookUp(Self.key, for: "a", now: 0)
        _ = cache.answered(Self.key, Self.answer("192.0.2.1"), ttl: 30, now: Self.second)
        guard case .cached(let cached) = cache.lookUp(Self.key, for: "b", now: 31 * Self.second - 1) else {
            Issue.record("a nanosecond before expiry the answer is live")
            return
        }
        #expect(try cached.get().lookupTime == .zero, "a cached answer took no lookup")
        #expect(try cached.get().addresses.map(\.text) == ["192.0.2.1"])
        #expect(cache.lookUp(Self.key, for: "c", now: 31 * Self.second).isStart, "at expiry a new lookup starts")
        let renewal = cache.answered(Self.key, Self.answer("192.0.2.9"), ttl: 30, now: 32 * Self.second)
        let (renewed, waiters) = try #require(renewal)
        #expect(waiters == ["c"])
        #expect(try renewed.get().addresses.map(\.text) == ["192.0.2.9"])
    }

    @Test("an answer without a TTL (a built-in list, a failure) lasts the whole run")
    func noTTLLastsTheRun() throws {
        var cache = Cache()
        _ = cache.lookUp(Self.key, for: "a", now: 0)
        let failure = TransferError(kind: .resolve, message: "httpdns 'tencent': HTTP 502")
        _ = cache.answered(Self.key, .failure(failure), ttl: nil, now: Self.second)
        guard case .cached(.failure(let error)) = cache.lookUp(Self.key, for: "b", now: UInt64.max) else {
            Issue.record("expected the cached failure")
            return
        }
        #expect(error == failure)
    }

    @Test("a TTL of 0 (or below) is expired at once: the next asker looks up again")
    func zeroTTL() throws {
        var cache = Cache()
        _ = cache.lookUp(Self.key, for: "a", now: 0)
        _ = cache.answered(Self.key, Self.answer("192.0.2.1"), ttl: -5, now: Self.second)
        #expect(cache.lookUp(Self.key, for: "b", now: Self.second).isStart)
    }

    @Test("keys differ by map, host and address family")
    func keysAreIndependent() {
        var cache = Cache()
        _ = cache.lookUp(Self.key, for: "a", now: 0)
        #expect(cache.lookUp(Cache.Key(map: "tencent", host: "api.example.com", family: .v6), for: "b", now: 0).isStart)
        #expect(cache.lookUp(Cache.Key(map: "other", host: "api.example.com", family: .any), for: "c", now: 0).isStart)
        #expect(cache.lookUp(Cache.Key(map: "tencent", host: "cdn.example.com", family: .any), for: "d", now: 0).isStart)
    }

    @Test("an answer nobody asked for is dropped")
    func strayAnswer() {
        var cache = Cache()
        #expect(cache.answered(Self.key, Self.answer("192.0.2.1"), ttl: 60, now: 0) == nil)
        #expect(cache.lookUp(Self.key, for: "a", now: 0).isStart)
    }
}

extension ResolutionCache.Lookup {
    var isStart: Bool {
        if case .start = self { return true }
        return false
    }

    var isJoined: Bool {
        if case .joined = self { return true }
        return false
    }
}
