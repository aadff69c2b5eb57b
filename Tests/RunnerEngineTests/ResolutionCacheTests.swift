import RunnerPlan
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerEngine

/// The resolver's memory with times passed in: deduplication, TTL expiry to the nanosecond,
/// lookup times.
@Suite("Resolution cache: one lookup per key, reused while its TTL lasts", .timeLimit(.minutes(1)))
struct ResolutionCacheTests {
    typealias Cache = ResolutionCache<String>
    static let key = key("tencent", "api.example.com")

    static func key(
        _ map: String, _ host: String, family: IPVersionPreference = .any, client: String? = nil, plan: String = "p"
    ) -> ResolutionKey {
        ResolutionKey(answer: AnswerKey(plan: plan, map: map, host: host, client: client), family: family)
    }
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

    @Test("keys differ by plan, map, host, client and address family")
    func keysAreIndependent() {
        var cache = Cache()
        _ = cache.lookUp(Self.key, for: "a", now: 0)
        #expect(cache.lookUp(Self.key("tencent", "api.example.com", family: .v6), for: "b", now: 0).isStart)
        #expect(cache.lookUp(Self.key("other", "api.example.com"), for: "c", now: 0).isStart)
        #expect(cache.lookUp(Self.key("tencent", "cdn.example.com"), for: "d", now: 0).isStart)
        #expect(cache.lookUp(Self.key("tencent", "api.example.com", client: "gd-mobile"), for: "e", now: 0).isStart)
        #expect(cache.lookUp(Self.key("tencent", "api.example.com", plan: "q"), for: "f", now: 0).isStart)
    }

    @Test("a kept answer is live until it expires; a new one sweeps out the expired; forgetting an answer drops every family of it")
    func keptAnswers() throws {
        var store = ResolutionCache<Never>()
        let v6 = Self.key("tencent", "api.example.com", family: .v6)
        let other = Self.key("tencent", "cdn.example.com")
        store.keep(.init(answer: Self.answer("192.0.2.1"), expires: 30 * Self.second), for: Self.key, now: 0)
        store.keep(.init(answer: Self.answer("2001:db8::1"), expires: 90 * Self.second), for: v6, now: 0)
        #expect(try store.kept(Self.key, now: 30 * Self.second - 1)?.answer.get().addresses.map(\.text) == ["192.0.2.1"])
        #expect(store.kept(Self.key, now: 30 * Self.second) == nil, "expired at its TTL")
        #expect(store.count == 2, "an expired answer stays until another is kept")
        store.keep(.init(answer: Self.answer("192.0.2.7"), expires: nil), for: other, now: 30 * Self.second)
        #expect(store.count == 2, "the expired answer went as the new one came")
        store.forget([v6.answer])
        #expect(store.kept(v6, now: 0) == nil)
        #expect(store.kept(other, now: UInt64.max) != nil, "another host's answer stays")
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
