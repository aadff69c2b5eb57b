import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// The one store of answers, as a value: per `ResolutionKey`, a lookup under way with everyone
/// waiting for it, or an answer and when it expires. A run's `DomainResolver` keeps every answer
/// of its run in one; `serve`'s `ResolutionMemory` keeps HTTPDNS answers from cycle to cycle in
/// another (`Waiter` is `Never` there: nothing waits across runs). Times are nanoseconds on the
/// caller's monotonic clock, so TTL expiry is tested by passing times, not by waiting.
struct ResolutionCache<Waiter> {
    /// What to do for one asker.
    enum Lookup {
        /// A live answer: use it (its `lookupTime` is 0, nothing was looked up).
        case cached(Result<Resolution, TransferError>)
        /// A lookup is under way; the asker waits for it.
        case joined
        /// Nothing live: the asker's lookup starts, and whoever asks meanwhile joins it.
        case start
    }

    /// An answer and how long it lasts.
    struct Kept {
        var answer: Result<Resolution, TransferError>
        /// nil: for as long as the store lasts (a run).
        var expires: UInt64?
        /// The HTTPDNS service it came from, for a store that outlives the plan that asked: an
        /// answer is only given to a lookup of the same service (a reloaded map asks afresh).
        var service: HTTPDNSSpec? = nil

        func isLive(at now: UInt64) -> Bool { expires.map { now < $0 } ?? true }
    }

    private enum Entry {
        case pending(startedAt: UInt64, [Waiter])
        case answered(Kept)
    }

    private var entries: [ResolutionKey: Entry] = [:]

    /// Answers and lookups held.
    var count: Int { entries.count }

    /// When an answer with `ttl` seconds (nil: none) given at `now` expires; a TTL of 0 or
    /// below has expired already.
    static func expiry(ttl: Int?, now: UInt64) -> UInt64? {
        ttl.map { now + UInt64(max(0, $0)) * 1_000_000_000 }
    }

    mutating func lookUp(_ key: ResolutionKey, for waiter: Waiter, now: UInt64) -> Lookup {
        switch entries[key] {
        case .pending(let startedAt, let waiting):
            entries[key] = .pending(startedAt: startedAt, waiting + [waiter])
            return .joined
        case .answered(let kept) where kept.isLive(at: now):
            return .cached(kept.answer.map { cached in
                var cached = cached
                cached.lookupTime = .zero
                return cached
            })
        case .answered, nil:
            entries[key] = .pending(startedAt: now, [waiter])
            return .start
        }
    }

    /// Records the answer of the lookup `key` started, timed and with its TTL (seconds) applied,
    /// and returns it with everyone who waited for it (nil when no lookup was under way).
    mutating func answered(
        _ key: ResolutionKey, _ result: Result<Resolution, TransferError>, ttl: Int?, now: UInt64
    ) -> (answer: Result<Resolution, TransferError>, waiters: [Waiter])? {
        guard case .pending(let startedAt, let waiting) = entries[key] else { return nil }
        let timed = result.map { resolution in
            var resolution = resolution
            resolution.lookupTime = .nanoseconds(Int64(clamping: now - startedAt))
            return resolution
        }
        entries[key] = .answered(Kept(answer: timed, expires: Self.expiry(ttl: ttl, now: now)))
        return (timed, waiting)
    }

    /// The answer kept for `key` while it is live at `now`.
    func kept(_ key: ResolutionKey, now: UInt64) -> Kept? {
        guard case .answered(let kept) = entries[key], kept.isLive(at: now) else { return nil }
        return kept
    }

    /// Keeps `kept` for `key` in place of whatever was there; expired answers go as a new one
    /// comes, so what a long-lived store holds is bounded by the questions still asked.
    mutating func keep(_ kept: Kept, for key: ResolutionKey, now: UInt64) {
        entries = entries.filter { entry in
            guard case .answered(let other) = entry.value else { return true }
            return other.isLive(at: now)
        }
        entries[key] = .answered(kept)
    }

    /// Drops what is held for `answers`, whatever the family or resolver asked.
    mutating func forget(_ answers: Set<AnswerKey>) {
        entries = entries.filter { !answers.contains($0.key.answer) }
    }
}
