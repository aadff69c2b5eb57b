import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// `expect.edges`: every address a selected population was given must lie within its rule's
/// bounds; a miss fails the result that checks the address (kind `scheduling`), whatever its
/// request did. A miss's subject names its client (`edges gd-mobile`), as `header NAME` names
/// a header: the metrics count each client's misses by it.
enum SchedulingVerdict {
    /// One population sent outside a rule's bounds.
    struct Miss: Equatable {
        var client: ClientPopulation
        var address: IPAddress
        var problem: Problem
    }

    /// The misses in `answers` (each population's answer for `host`, in the plan's order),
    /// in the order of the rules, then the clients, then each answer's addresses. A static map
    /// in `within` stands for what it lists for `host` (`maps`: the plan's).
    static func misses(
        _ rules: [EdgeRule], answers: [ClientResolution], host: String, ipVersion: IPVersionPreference, maps: [DomainMapSpec]
    ) -> [Miss] {
        var misses: [Miss] = []
        for rule in rules {
            let bounds = rule.within.map { bound(of: $0, host: host, maps: maps) }
            for answer in answers where rule.selects(answer.client.identity) {
                guard case .success(let resolution) = answer.answer else { continue }
                for address in resolution.ordered(for: ipVersion) where !bounds.contains(where: { $0.contains(address) }) {
                    misses.append(Miss(
                        client: answer.client, address: address,
                        problem: Problem(
                            subject: Problem.edgesSubject(of: answer.client.name), expected: bounds.map(\.text).joined(separator: ", "),
                            actual: "\(answer.client.identity.described) was sent \(address.text)", kind: .scheduling)))
                }
            }
        }
        return misses
    }

    /// The result's outcome with its misses applied: first, a transfer error becoming a
    /// problem of its own (as `DNSVerdict` does).
    static func apply(to outcome: Outcome, misses: [Problem]) -> Outcome {
        outcome.failing(first: misses)
    }

    /// A bound as a test and as the message shows it.
    private struct Bound {
        var text: String
        var contains: (IPAddress) -> Bool
    }

    private static func bound(of bound: EdgeRule.Bound, host: String, maps: [DomainMapSpec]) -> Bound {
        switch bound {
        case .subnet(let subnet):
            return Bound(text: subnet.description, contains: subnet.contains)
        case .address(let address):
            return Bound(text: address.text, contains: { $0 == address })
        case .map(let name):
            // The decoder allows static maps only; one without the host allows nothing.
            var listed: [IPAddress] = []
            if case .staticList(let entries)? = maps.first(where: { $0.name == name })?.source {
                listed = entries.first { $0.host == host }?.addresses ?? []
            }
            let addresses = listed.isEmpty ? "nothing for \(host)" : listed.map(\.text).joined(separator: ", ")
            return Bound(text: "\(name) (\(addresses))", contains: listed.contains)
        }
    }
}
