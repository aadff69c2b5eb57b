import RunnerPlan
import RunnerVocabulary

/// What the resolver remembers, as a value: per (map, host, address family), a lookup under way
/// with everyone waiting for it, or an answer and when it expires. Times are nanoseconds on the
/// caller's monotonic clock, so TTL expiry is tested by passing times, not by waiting.
struct ResolutionCache<Waiter> {
    struct Key: Hashable {
        var map: String
        var host: String
        var family: IPVersionPreference
        /// The resolver asked, for a map whose answer may come from it (`system`, a `fallback:
        /// system` chain); nil for every other map, whose answer is the same for any resolver.
        var resolver: ResolverChoice? = nil
        /// The user population the map was asked as (`clients:`); nil: as this machine.
        var client: String? = nil
    }

    /// What to do for one asker.
    enum Lookup {
        /// A live answer: use it (its `lookupTime` is 0, nothing was looked up).
        case cached(Result<Resolution, TransferError>)
        /// A lookup is under way; the asker waits for it.
        case joined
        /// Nothing live: the asker's lookup starts, and whoever asks meanwhile joins it.
        case start
    }

    private enum Entry {
        case pending(startedAt: UInt64, [Waiter])
        /// `expires` nil: for the rest of the run.
        case answered(Result<Resolution, TransferError>, expires: UInt64?)
    }

    private var entries: [Key: Entry] = [:]

    mutating func lookUp(_ key: Key, for waiter: Waiter, now: UInt64) -> Lookup {
        switch entries[key] {
        case .pending(let startedAt, let waiting):
            entries[key] = .pending(startedAt: startedAt, waiting + [waiter])
            return .joined
        case .answered(let result, let expires) where expires.map({ now < $0 }) ?? true:
            return .cached(result.map { cached in
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
        _ key: Key, _ result: Result<Resolution, TransferError>, ttl: Int?, now: UInt64
    ) -> (answer: Result<Resolution, TransferError>, waiters: [Waiter])? {
        guard case .pending(let startedAt, let waiting) = entries[key] else { return nil }
        let timed = result.map { resolution in
            var resolution = resolution
            resolution.lookupTime = .nanoseconds(Int64(clamping: now - startedAt))
            return resolution
        }
        let expires = ttl.map { now + UInt64(max(0, $0)) * 1_000_000_000 }
        entries[key] = .answered(timed, expires: expires)
        return (timed, waiting)
    }
}
