import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// What a flow step takes from the passing result it runs after (`after:`): the lane that
/// result ran on, the values captured on the chain so far, and the session's cookies.
struct FlowLane: Sendable {
    /// The results before this one, nearest first (they name it: `S [..] after P [..]`).
    var steps: [ResultStep]
    /// The predecessor's concrete strategy, kept when it can carry the step's scheme.
    var strategy: StrategyKind
    /// The predecessor's pinned IP and the host it was pinned for: the same host keeps it.
    var ip: IPAddress?
    var host: String
    /// Every value captured on the chain, by name.
    var captures: [String: CapturedValue]
    /// The predecessor's cookie jar as its last hop left it.
    var cookies: CookieJar
}

/// A value a result captured: its text, and whether reports must mask it.
struct CapturedValue: Sendable, Equatable {
    var text: String
    var secret: Bool
}
