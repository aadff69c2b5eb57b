import RunnerResults

/// A cycle's pick series (`sdk:`): each address a population's app SDK picks, per plan, map,
/// host and population, and whether every result on it passed. The results that share a pick
/// (several scenarios or strategies on one map and host) share its series. Nothing is kept per
/// result: a result without a pick costs one check; one with a pick adds to a few entries here.
struct AppPickTally: Sendable {
    /// One picked address, its values as the results gave them (redacted when the cycle's
    /// samples are made, once per pick rather than once per result).
    struct Key: Hashable, Sendable {
        var plan: Int
        var map: String
        var host: String
        var client: String
        var ip: String
    }

    /// How the results of a pick went: results that were skipped count neither way.
    struct Outcome: Sendable, Equatable {
        var ran = 0
        var passed = 0
        /// The earliest result (in plan order) that carried the pick, and the population's
        /// place among that result's pickers: the series' order, whatever order results finish in.
        var first: ResultPosition
        var pickerIndex: Int

        /// 1 when every result that ran passed, 0 when one failed or errored; nil when none ran.
        var success: Bool? { ran == 0 ? nil : passed == ran }
    }

    private var outcomes: [Key: Outcome] = [:]

    var isEmpty: Bool { outcomes.isEmpty }

    /// Adds `result` (of plan `plan`, at `position`) to each pick its address is: one per
    /// population that picks it. A result without a pick, or on an address nobody picks, adds nothing.
    mutating func add(_ result: borrowing ScenarioResult, at position: ResultPosition) {
        guard let pick = result.evidence.pick, !pick.pickers.isEmpty, let ip = result.ip else { return }
        let ran: Bool
        let passed: Bool
        switch result.outcome {
        case .passed: (ran, passed) = (true, true)
        case .failed, .errored: (ran, passed) = (true, false)
        case .skipped: (ran, passed) = (false, false)
        }
        for (index, picker) in pick.pickers.enumerated() {
            let key = Key(plan: position.suite, map: pick.map, host: pick.host, client: picker.client, ip: ip)
            var outcome = outcomes[key] ?? Outcome(first: position, pickerIndex: index)
            if position < outcome.first { (outcome.first, outcome.pickerIndex) = (position, index) }
            if ran { outcome.ran += 1 }
            if passed { outcome.passed += 1 }
            outcomes[key] = outcome
        }
    }

    /// One pick's series: its labels (redacted) and its success (nil: every result was skipped).
    struct Sample: Sendable, Equatable {
        var plan: Int
        var map: String
        var host: String
        var client: String
        var ip: String
        var success: Bool?
    }

    /// The picks in plan order (the first result that carried each, then its pickers' order),
    /// their labels masked by `redactor`. Picks that masking makes alike are one series, which
    /// passes only when both did.
    func samples(redactor: Redactor) -> [Sample] {
        let ordered = outcomes.sorted { lhs, rhs in
            if lhs.value.first != rhs.value.first { return lhs.value.first < rhs.value.first }
            if lhs.value.pickerIndex != rhs.value.pickerIndex { return lhs.value.pickerIndex < rhs.value.pickerIndex }
            // Two addresses a result cannot share; two maps or hosts of one result neither.
            return (lhs.key.map, lhs.key.host, lhs.key.client, lhs.key.ip) < (rhs.key.map, rhs.key.host, rhs.key.client, rhs.key.ip)
        }
        var samples: [Sample] = []
        samples.reserveCapacity(ordered.count)
        var merged: [Key: (index: Int, ran: Int, passed: Int)] = [:]
        for (key, outcome) in ordered {
            let masked = Key(
                plan: key.plan, map: redactor.redact(key.map), host: redactor.redact(key.host),
                client: redactor.redact(key.client), ip: redactor.redact(key.ip))
            if var known = merged[masked] {
                known.ran += outcome.ran
                known.passed += outcome.passed
                merged[masked] = known
                samples[known.index].success = known.ran == 0 ? nil : known.passed == known.ran
                continue
            }
            merged[masked] = (samples.count, outcome.ran, outcome.passed)
            samples.append(Sample(
                plan: masked.plan, map: masked.map, host: masked.host, client: masked.client, ip: masked.ip,
                success: outcome.success))
        }
        return samples
    }
}
