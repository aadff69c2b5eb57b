import RunnerPlan

/// Why the SDK hands the app this address, in words a report can print after it:
/// "127.0.0.9 (first in the answer; ranking off)".
public enum PickReason: Sendable, Equatable, CustomStringConvertible {
    /// Why a ranking SDK left a family in the service's order.
    public enum Unranked: Sendable, Equatable {
        /// The SDK ranks only the other family (Alibaba Android, Tencent Android: IPv4 only).
        case familyNotRanked
        /// The family has fewer addresses than the SDK ranks.
        case tooFewAddresses(count: Int, minimum: Int)
        /// The family has more addresses than the SDK ranks (Tencent iOS: at most 9).
        case tooManyAddresses(count: Int, maximum: Int)
        /// No connect time for some address of the family yet: the ranking's order applies to the
        /// next lookup, so the first lookup (and one whose connects are missing) keeps the service's.
        case notMeasured
    }

    /// Ranking off: the answer's first address.
    case firstInAnswer
    /// Ranking off: the answer's first address of this family (Tencent hands out one per family;
    /// Alibaba's `ips[0]` is IPv4 even when the answer lists IPv6 first).
    case firstOfFamilyInAnswer(IPAddress.Family)
    /// Ranking on, but this family kept the service's order.
    case unranked(IPAddress.Family, Unranked)
    /// Ranked first: the fastest of several addresses that connected, in this long.
    case fastestConnect(Duration)
    /// Ranked first: the only address of its family that connected, in this long.
    case onlyLiveAddress(Duration)
    /// Ranking on and every connect failed: all scored alike, so the service's first stays first.
    case allFailed
    /// The SDK fell back to the system resolver (HTTPDNS gave nothing) and hands out this
    /// answer's first (of `family`, for an SDK that hands out one per family), unranked.
    case fallback(source: String, family: IPAddress.Family?)
    /// Ranked first although its connect failed: the SDK scores a failure as this long, and the
    /// addresses that connected took longer (or as long, and came later in the answer).
    case failureScoredAhead(Duration)

    public var description: String {
        switch self {
        case .firstInAnswer:
            "first in the answer; ranking off"
        case .firstOfFamilyInAnswer(let family):
            "first \(family.name) in the answer; ranking off"
        case .unranked(let family, let cause):
            "first \(family.name) in the answer; " + cause.text(family)
        case .fastestConnect(let duration):
            "fastest connect, \(VerdictText.milliseconds(duration))"
        case .onlyLiveAddress(let duration):
            "the only address that connected, in \(VerdictText.milliseconds(duration))"
        case .allFailed:
            "first in the answer; every ranking connect failed"
        case .fallback(let source, let family):
            "first\(family.map { " " + $0.name } ?? "") in \(source)'s answer; the SDK fell back, HTTPDNS gave no address"
        case .failureScoredAhead(let score):
            "its connect failed, scored \(score.planNotation), ahead of slower connects"
        }
    }
}

extension PickReason.Unranked {
    func text(_ family: IPAddress.Family) -> String {
        switch self {
        case .familyNotRanked:
            "the SDK does not rank \(family.name)"
        case .tooFewAddresses(let count, let minimum):
            "\(count) \(family.name) \(count == 1 ? "address" : "addresses"), ranking needs \(minimum)"
        case .tooManyAddresses(let count, let maximum):
            "\(count) \(family.name) addresses, ranking takes at most \(maximum)"
        case .notMeasured:
            "not ranked yet, no connect times"
        }
    }
}

extension IPAddress.Family {
    /// `IPv4`, `IPv6`.
    fileprivate var name: String {
        switch self {
        case .v4: "IPv4"
        case .v6: "IPv6"
        }
    }
}
