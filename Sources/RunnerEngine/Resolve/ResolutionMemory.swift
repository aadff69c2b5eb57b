import Foundation
import RunnerPlan
import RunnerResults

/// HTTPDNS answers kept from one run to the next (`runner serve`'s cycles), each until its TTL
/// runs out, as an app keeps them between requests. Only answers with a TTL are kept: a failed
/// lookup, the machine's resolver and a fallback's answer are asked again next run (a built-in
/// list costs nothing). An answer is kept per plan file, map, host and address family, with the
/// service as the map then said: a reloaded plan whose map changed asks afresh.
///
/// Times are nanoseconds on the runs' monotonic clock. Shared by runs one after another, never
/// at once; the lock keeps it safe should that change.
public final class ResolutionMemory: @unchecked Sendable {
    struct Key: Hashable {
        var plan: String
        var map: String
        var host: String
        var family: IPVersionPreference
        /// The user population asked as; nil: this machine.
        var client: String? = nil
    }

    private struct Entry {
        var service: HTTPDNSSpec
        var resolution: Resolution
        var expires: UInt64
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]

    public init() {}

    /// How many answers are kept (for the tests: it must not grow over cycles).
    public var count: Int { lock.withLock { entries.count } }

    /// The kept answer for `key` from `service` and the seconds it has left, when it has any.
    func answer(for key: Key, service: HTTPDNSSpec, now: UInt64) -> (resolution: Resolution, ttl: Int)? {
        lock.withLock {
            guard let entry = entries[key], entry.service == service, now < entry.expires else { return nil }
            var resolution = entry.resolution
            let left = Int((entry.expires - now) / 1_000_000_000)
            resolution.ttl = left
            resolution.source += " (kept from an earlier run, \(left)s left)"
            return (resolution, left)
        }
    }

    /// Keeps `resolution` for its TTL; expired answers go as a new one comes, so what is kept
    /// is bounded by the plans' maps and hosts however long `serve` runs.
    func remember(_ resolution: Resolution, for key: Key, service: HTTPDNSSpec, now: UInt64) {
        guard let ttl = resolution.ttl, ttl > 0, resolution.fallbackFrom == nil else { return }
        lock.withLock {
            entries = entries.filter { now < $0.value.expires }
            entries[key] = Entry(service: service, resolution: resolution, expires: now + UInt64(ttl) * 1_000_000_000)
        }
    }

    /// Drops the kept answers for `answers`' maps, hosts and clients (the state file could not
    /// record them), so that the next run asks those services again and records what they say.
    /// Whatever the plan (named here, a file there): one more lookup of another plan's map costs
    /// a request, never a result.
    public func forget(_ answers: [AnswerKey]) {
        guard !answers.isEmpty else { return }
        let dropped = Set(answers.map { [$0.map, $0.host, $0.client ?? ""] })
        lock.withLock { entries = entries.filter { !dropped.contains([$0.key.map, $0.key.host, $0.key.client ?? ""]) } }
    }
}
