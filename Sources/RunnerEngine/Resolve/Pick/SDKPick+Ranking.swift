import RunnerPlan

extension SDKPick {
    /// One family's addresses as the SDK orders them, and why the first is first.
    struct ArrangedFamily: Equatable {
        var addresses: [IPAddress]
        /// Nil when ranking is off (the hand-out then says where the address stood).
        var firstReason: PickReason?
    }

    /// Orders `addresses` (one family, service order) by connect time when `ranking` covers the
    /// family and its bounds; a stable sort, so ties keep the service's order.
    static func arrange(
        _ addresses: [IPAddress], family: IPAddress.Family, ranking: SDKProfile.Ranking?,
        connects: [IPAddress: ConnectOutcome]?
    ) -> ArrangedFamily {
        guard let ranking else { return ArrangedFamily(addresses: addresses, firstReason: nil) }
        func unranked(_ cause: PickReason.Unranked) -> ArrangedFamily {
            ArrangedFamily(addresses: addresses, firstReason: .unranked(family, cause))
        }
        guard ranking.families.includes(family) else { return unranked(.familyNotRanked) }
        guard addresses.count >= ranking.minimumAddresses else {
            return unranked(.tooFewAddresses(count: addresses.count, minimum: ranking.minimumAddresses))
        }
        if let maximum = ranking.maximumAddresses, addresses.count > maximum {
            return unranked(.tooManyAddresses(count: addresses.count, maximum: maximum))
        }
        let measured = addresses.compactMap { address in connects?[address].map { (address: address, outcome: $0) } }
        guard measured.count == addresses.count, let connects else { return unranked(.notMeasured) }

        let ranked = measured.enumerated().sorted { left, right in
            let leftScore = ConnectScore(left.element.outcome, failureScore: ranking.failureScore)
            let rightScore = ConnectScore(right.element.outcome, failureScore: ranking.failureScore)
            if leftScore != rightScore { return leftScore < rightScore }
            return left.offset < right.offset
        }.map(\.element)
        guard let first = ranked.first else { return unranked(.notMeasured) }

        let liveCount = addresses.filter { if case .connected = connects[$0] { true } else { false } }.count
        let reason: PickReason = switch first.outcome {
        case .connected(let duration): liveCount == 1 ? .onlyLiveAddress(duration) : .fastestConnect(duration)
        case .failed:
            switch ranking.failureScore {
            case .last: .allFailed
            case .time(let score): liveCount == 0 ? .allFailed : .failureScoredAhead(score)
            }
        }
        return ArrangedFamily(addresses: ranked.map(\.address), firstReason: reason)
    }
}

/// A connect as the SDK scores it: a time, and for `.last` failures a place after every time.
private struct ConnectScore: Comparable {
    var failedLast: Bool
    var time: Duration

    init(_ outcome: ConnectOutcome, failureScore: SDKProfile.FailureScore) {
        switch (outcome, failureScore) {
        case (.connected(let duration), _): (failedLast, time) = (false, duration)
        case (.failed, .last): (failedLast, time) = (true, .zero)
        case (.failed, .time(let score)): (failedLast, time) = (false, score)
        }
    }

    static func < (left: ConnectScore, right: ConnectScore) -> Bool {
        if left.failedLast != right.failedLast { return !left.failedLast }
        return left.time < right.time
    }
}

extension SDKProfile.RankedFamilies {
    func includes(_ family: IPAddress.Family) -> Bool {
        switch (self, family) {
        case (.ipv4, .v4), (.ipv4AndIPv6, _): true
        case (.ipv4, .v6): false
        }
    }
}
