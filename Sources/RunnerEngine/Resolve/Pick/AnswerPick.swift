import RunnerPlan
import RunnerResults

/// What an app's SDK makes of one answer of a map with `sdk:`: the order it keeps the
/// addresses in, what it hands the app, and the ranking connects behind that order.
struct AnswerPick: Sendable, Equatable {
    var sdk: SDKProfile.Kind
    var choice: SDKPick
    /// The ranking connects to the answer's addresses, in the answer's order; empty when the
    /// app does not rank, or the answer is a fallback's (never ranked).
    var connects: [PickEvidence.RankingConnect] = []
    /// What the SDK hands out, as each result's evidence names it: made once per answer, shared
    /// by the results of its addresses (a reason's text is made once, not once a result).
    private(set) var handedOut: [(address: IPAddress, reason: String)] = []
    /// `handedOut`'s addresses as text, for the evidence of the results they are not.
    private(set) var handedOutText: [String] = []

    /// The addresses the SDK ranks in `answer`: those of the families it ranks, where the
    /// family's count is within the ranking's bounds; empty when the app does not rank.
    static func rankedAddresses(of answer: [IPAddress], profile: SDKProfile) -> [IPAddress] {
        guard profile.kind.canRank, let ranking = profile.ranking else { return [] }
        var ranked: [IPAddress] = []
        for family in [IPAddress.Family.v4, .v6] where ranking.families.includes(family) {
            let addresses = answer.filter { $0.family == family }
            guard addresses.count >= ranking.minimumAddresses,
                  ranking.maximumAddresses.map({ addresses.count <= $0 }) ?? true
            else { continue }
            ranked += addresses
        }
        return ranked
    }

    /// The pick from `answer`, ranked by `connects` (by address) where the app ranks.
    init(answer: [IPAddress], profile: SDKProfile, connects: [IPAddress: ConnectOutcome]?, port: Int?) {
        sdk = profile.kind
        choice = SDKPick(answer: answer, profile: profile, connects: connects)
        describeHandOut()
        guard let connects, let port else { return }
        self.connects = answer.compactMap { address in
            connects[address].map { outcome in
                switch outcome {
                case .connected(let time):
                    PickEvidence.RankingConnect(address: address.text, port: port, time: time, error: nil)
                case .failed(let failure):
                    PickEvidence.RankingConnect(address: address.text, port: port, time: nil, error: failure.reason)
                }
            }
        }
    }

    /// The pick from a fallback's answer (`SDKPick(fallback:source:profile:)`).
    init(fallback answer: [IPAddress], source: String, profile: SDKProfile) {
        sdk = profile.kind
        choice = SDKPick(fallback: answer, source: source, profile: profile)
        describeHandOut()
    }

    private mutating func describeHandOut() {
        handedOut = choice.picked.map { ($0.address, $0.reason.description) }
        handedOutText = choice.picked.map(\.address.text)
    }

    static func == (left: AnswerPick, right: AnswerPick) -> Bool {
        left.sdk == right.sdk && left.choice == right.choice && left.connects == right.connects
    }
}
