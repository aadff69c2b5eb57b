import RunnerResults
import RunnerVocabulary

/// The addresses each population's HTTPDNS SDK hands its apps (`sdk:`), and how the results on
/// them came out, counted as results come (in any order), for the console's summary: per
/// (plan, scenario, client), each picked address for its host, in the order first seen.
struct PickTally {
    typealias Key = ClientEdgeTally.Key

    /// How the results on a picked address came out: any that did not pass fails it.
    enum State: Equatable {
        case passed
        /// Why the first result that did not pass did not (`status`, `tls`).
        case failed(String)
        /// No result on it ran.
        case skipped
    }

    /// One address a population's SDK picks, for one host.
    struct Pick {
        var address: String
        var host: String
        /// Why the SDK picks it (`fastest connect, 0.3 ms`), as the first result said.
        var reason: String
        var state: State
    }

    struct Entry {
        var picks: [Pick] = []
        /// Where the client first picked, for plan order: the result's place, then the
        /// client's place among the result's pickers.
        fileprivate var rank: (position: ResultPosition, index: Int)
    }

    private var entries: [Key: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Counts `result`, when its map names an SDK and some population picks its address.
    /// `reason` says why it did not pass (empty when it did).
    mutating func count(_ result: ScenarioResult, at position: ResultPosition, reason: String) {
        guard let pick = result.evidence.pick, !pick.pickers.isEmpty, let address = result.ip else { return }
        let state: State =
            switch result.outcome {
            case .passed: .passed
            case .failed, .errored: .failed(reason)
            case .skipped: .skipped
            }
        for (index, picker) in pick.pickers.enumerated() {
            let key = Key(suite: position.suite, scenario: result.scenario, client: picker.client)
            Self.add(
                Pick(address: address, host: pick.host, reason: picker.reason, state: state),
                to: &entries[key, default: Entry(rank: (position, index))], at: (position, index))
        }
    }

    private static func add(_ pick: Pick, to entry: inout Entry, at rank: (position: ResultPosition, index: Int)) {
        if rank < entry.rank { entry.rank = rank }
        guard let known = entry.picks.firstIndex(where: { $0.address == pick.address && $0.host == pick.host }) else {
            entry.picks.append(pick)
            return
        }
        // A failure stays; a pass outranks a skip.
        switch (entry.picks[known].state, pick.state) {
        case (.failed, _), (.passed, .passed), (.passed, .skipped), (.skipped, .skipped): break
        case (_, .failed), (.skipped, .passed): entry.picks[known].state = pick.state
        }
    }

    /// The picks of one population of one scenario; empty when it picked nothing.
    func picks(for key: Key) -> [Pick] {
        entries[key]?.picks ?? []
    }

    /// Every population that picked, in plan order: by plan, scenario, then where each first picked.
    func inPlanOrder() -> [(key: Key, picks: [Pick])] {
        entries.sorted { $0.value.rank < $1.value.rank }.map { (key: $0.key, picks: $0.value.picks) }
    }
}
