import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// `expect.dns.within`: a resolver that returned an address the named maps do not list fails
/// the result whatever the request then did; a transfer error is listed under the DNS problem.
enum DNSVerdict {
    /// The resolver's answer with the check's findings in its evidence: which of its addresses
    /// none of `maps` lists for the host (`answers`: each map's answer, in order). A map with no
    /// answer makes it a `resolve` error naming the map.
    static func check(
        _ resolution: Resolution, against maps: [String], answers: [Result<Resolution, TransferError>]
    ) -> Result<Resolution, TransferError> {
        guard var lookup = resolution.dns else { return .success(resolution) }
        var listed: Set<IPAddress> = []
        for (map, answer) in zip(maps, answers) {
            switch answer {
            case .success(let reference):
                listed.formUnion(reference.addresses)
            case .failure(let error):
                return .failure(TransferError(
                    kind: .resolve,
                    message: "expect.dns: map '\(map)' has no answer for '\(lookup.host)' to check resolver \(lookup.resolver) against: \(error.message)",
                    diagnosis: error.diagnosis))
            }
        }
        lookup.within = maps
        lookup.foreign = resolution.addresses.filter { !listed.contains($0) }.map(\.text)
        var checked = resolution
        checked.dns = lookup
        return .success(checked)
    }

    /// One problem per host whose lookup returned foreign addresses, in hop order.
    static func problems(_ lookups: [DNSLookupEvidence]) -> [Problem] {
        lookups.compactMap { lookup in
            guard let within = lookup.within, !lookup.foreign.isEmpty else { return nil }
            return Problem(
                subject: "dns",
                expected: "only addresses listed by \(VerdictText.list(within.map { "'\($0)'" }, "or")) for \(lookup.host)",
                actual: "resolver \(lookup.resolver) returned \(VerdictText.list(lookup.foreign, "and")) for \(lookup.host), "
                    + (within.count == 1
                        ? "which '\(within[0])' does not list"
                        : "which neither \(VerdictText.list(within.map { "'\($0)'" }, "nor")) lists"))
        }
    }

    /// The attempt's outcome with the DNS check applied.
    static func apply(to outcome: Outcome, lookups: [DNSLookupEvidence]) -> Outcome {
        outcome.failing(first: problems(lookups))
    }
}
