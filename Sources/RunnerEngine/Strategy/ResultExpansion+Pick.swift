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
        var measured: Set<String> = []
        for (name, resolution) in holders {
            guard let pick = resolution.pick else { continue }
            let client = name ?? PickEvidence.thisMachine
            var current = evidence ?? PickEvidence(map: map, host: host, sdk: pick.sdk.rawValue, pickers: [])
            if let picked = pick.choice.picked.first(where: { $0.address == address }) {
                current.pickers.append(PickEvidence.Picker(client: client, reason: picked.reason.description))
            } else {
                current.elsewhere.append(PickEvidence.Elsewhere(client: client, addresses: pick.choice.picked.map(\.address.text)))
            }
            // Every population's connects in one cycle are the same connects: each address once.
            for connect in pick.connects where measured.insert(connect.address).inserted {
                current.connects.append(connect)
            }
            evidence = current
        }
        return evidence
    }
}
