import RunnerResults
import RunnerVocabulary

/// Where each user population of a scenario was sent and how those edges did, counted as
/// results come (in any order), for the console's summary by client and the client metrics:
/// per (plan, scenario, client), the distinct addresses the client was given, those on which a
/// result did not pass (with why), and its `expect.edges` misses.
struct ClientEdgeTally {
    /// A scenario's population: the plan's place, the scenario's name as the report writes it,
    /// and the client's name. By name rather than place: two scenarios a masked secret made
    /// alike are one population's series, never two series with the same labels.
    struct Key: Hashable {
        var suite: Int
        var scenario: String
        var client: String
    }

    /// What one population was given and how it did.
    struct Edges {
        var labels: [ClientIdentity.Label]
        /// In the order their results came.
        var addresses: [String] = []
        /// The addresses on which some result did not pass, each with the first one's reason.
        var failing: [(address: String, reason: String)] = []
        /// Why the client got no address at all (its lookup failed); nil when it got some.
        var noAddress: String?
        var misses = 0
        /// Where the client first appeared, for plan order: the result's place, then the
        /// client's place among the result's clients.
        fileprivate var rank: (position: ResultPosition, index: Int)

        /// Addresses on which every result passed.
        var passing: Int { addresses.count - failing.count }
    }

    private var edges: [Key: Edges] = [:]

    /// Whether any result named a population.
    var isEmpty: Bool { edges.isEmpty }

    /// Counts one result for `client`, the `index`th of its clients: its address (nil: the
    /// client's lookup failed), whether it passed, why not (`reason`), and the client's misses.
    mutating func add(
        client: String, labels: [ClientIdentity.Label], index: Int, scenario: String, at position: ResultPosition,
        address: String?, passed: Bool, reason: String, misses: Int
    ) {
        let key = Key(suite: position.suite, scenario: scenario, client: client)
        // In place: one lookup, and no copy of the entry's lists to append to.
        Self.count(
            &edges[key, default: Edges(labels: labels, rank: (position, index))], at: (position, index), address: address,
            passed: passed, reason: reason, misses: misses)
    }

    private static func count(
        _ entry: inout Edges, at rank: (position: ResultPosition, index: Int), address: String?, passed: Bool, reason: String,
        misses: Int
    ) {
        if rank < entry.rank { entry.rank = rank }
        if let address {
            if !entry.addresses.contains(address) { entry.addresses.append(address) }
            if !passed, !entry.failing.contains(where: { $0.address == address }) { entry.failing.append((address, reason)) }
        } else if entry.noAddress == nil {
            entry.noAddress = reason
        }
        entry.misses += misses
    }

    /// Every population counted, in plan order: by plan, scenario, then where each first appeared.
    func inPlanOrder() -> [(key: Key, edges: Edges)] {
        edges.map { (key: $0.key, edges: $0.value) }.sorted { $0.edges.rank < $1.edges.rank }
    }
}
