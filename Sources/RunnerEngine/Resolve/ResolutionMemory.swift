import Foundation
import RunnerPlan
import RunnerResults

/// HTTPDNS answers kept from one run to the next (`runner serve`'s cycles), each until its TTL
/// runs out, as an app keeps them between requests: a `ResolutionCache` that outlives the run,
/// under the same keys. Only answers with a TTL are kept: a failed lookup, the machine's resolver
/// and a fallback's answer are asked again next run (a built-in list costs nothing). An answer is
/// kept with the service as its map then said: a reloaded plan whose map changed asks afresh.
///
/// Times are nanoseconds on the runs' monotonic clock. Shared by runs one after another, never
/// at once; the lock keeps it safe should that change.
public final class ResolutionMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var store = ResolutionCache<Never>()

    public init() {}

    /// How many answers are kept (for the tests: it must not grow over cycles).
    public var count: Int { lock.withLock { store.count } }

    /// The kept answer for `key` from `service` and the seconds it has left, when it has any.
    func answer(for key: ResolutionKey, service: HTTPDNSSpec, now: UInt64) -> (resolution: Resolution, ttl: Int)? {
        lock.withLock {
            guard let kept = store.kept(key, now: now), kept.service == service, let expires = kept.expires,
                case .success(var resolution) = kept.answer
            else { return nil }
            let left = Int((expires - now) / 1_000_000_000)
            resolution.ttl = left
            resolution.source += " (kept from an earlier run, \(left)s left)"
            return (resolution, left)
        }
    }

    /// Keeps `resolution` for its TTL; expired answers go as a new one comes, so what is kept
    /// is bounded by the plans' maps and hosts however long `serve` runs.
    func remember(_ resolution: Resolution, for key: ResolutionKey, service: HTTPDNSSpec, now: UInt64) {
        guard let ttl = resolution.ttl, ttl > 0, resolution.fallbackFrom == nil else { return }
        let kept = ResolutionCache<Never>.Kept(
            answer: .success(resolution), expires: ResolutionCache<Never>.expiry(ttl: ttl, now: now), service: service)
        lock.withLock { store.keep(kept, for: key, now: now) }
    }

    /// Drops the kept answers of `answers` (the state file could not record them), whatever
    /// family they were asked for, so that the next run asks those services again and records
    /// what they say.
    public func forget(_ answers: [AnswerKey]) {
        guard !answers.isEmpty else { return }
        let dropped = Set(answers)
        lock.withLock { store.forget(dropped) }
    }
}
