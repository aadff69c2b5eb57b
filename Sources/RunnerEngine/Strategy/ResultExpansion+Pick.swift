import RunnerPlan
import RunnerResults

extension ResultExpansion {
    /// Who picks `address` among the populations that were answered it (`holders`, each with
    /// its answer; nil name: this machine), on a map with `sdk:`; nil when no holder's answer
    /// carries a pick (the map names no SDK).
    static func pickEvidence(
        for address: IPAddress, holders: [(name: String?, resolution: Resolution)], map: String, host: String
    ) -> PickEvidence? {
        var evidence: PickEvidence?
        for (name, resolution) in holders {
            guard let pick = resolution.pick else { continue }
            let client = name ?? PickEvidence.thisMachine
            var current = evidence ?? PickEvidence(map: map, host: host, sdk: pick.sdk.rawValue, pickers: [])
            if let picked = pick.handedOut.first(where: { $0.address == address }) {
                current.pickers.append(PickEvidence.Picker(client: client, reason: picked.reason))
            } else {
                current.elsewhere.append(PickEvidence.Elsewhere(client: client, addresses: pick.handedOutText))
            }
            // One cycle's connects are the same for every population: shared as they are, and
            // merged (each address once) only where answers held different addresses.
            if current.connects.isEmpty {
                current.connects = pick.connects
            } else if current.connects != pick.connects {
                // A few addresses each: a scan costs less than a set until answers are long.
                if current.connects.count + pick.connects.count <= 32 {
                    for connect in pick.connects where !current.connects.contains(where: { $0.address == connect.address }) {
                        current.connects.append(connect)
                    }
                } else {
                    var measured = Set(current.connects.map(\.address))
                    for connect in pick.connects where measured.insert(connect.address).inserted { current.connects.append(connect) }
                }
            }
            evidence = current
        }
        return evidence
    }
}
