import Foundation
import RunnerVocabulary

/// What one invocation came to: one suite per plan file, in command-line order. The results
/// themselves went to the run's `ResultSink`s as they finished.
public struct RunResult: Sendable {
    public var suites: [SuiteResult]
    public var startedAt: Date
    /// Wall time of the whole run.
    public var duration: Duration
    /// Set when SIGINT/SIGTERM stopped the run.
    public var interruptedBy: Int32?
    /// Connections the run opened (HTTPDNS lookups and diagnosis probes included).
    public var connectionsOpened: Int
    /// The part of a split run this was (`--shard K/N`); nil for a whole run.
    public var shard: Shard?
    /// What the state file (`--state`) took of the run's HTTPDNS answers; nil without one.
    public var stateRecording: StateRecording?

    public init(
        suites: [SuiteResult], startedAt: Date, duration: Duration, interruptedBy: Int32? = nil,
        connectionsOpened: Int = 0, shard: Shard? = nil, stateRecording: StateRecording? = nil
    ) {
        self.suites = suites
        self.startedAt = startedAt
        self.duration = duration
        self.interruptedBy = interruptedBy
        self.connectionsOpened = connectionsOpened
        self.shard = shard
        self.stateRecording = stateRecording
    }

    /// Every answer the run gave its state file is in it (true without a state file).
    public var stateRecorded: Bool { stateRecording?.isComplete ?? true }

    public var counts: OutcomeCounts { suites.reduce(OutcomeCounts()) { $0 + $1.counts } }
}

/// A plan as reports name it: known before any result, so each result can say its plan.
public struct PlanIdentity: Sendable, Hashable {
    /// The plan's name.
    public var name: String
    /// The plan's path as given.
    public var file: String

    public init(name: String, file: String) {
        self.name = name
        self.file = file
    }
}

/// What one plan file's run came to; its results went to the run's `ResultSink`s as they finished.
public struct SuiteResult: Sendable {
    public var plan: PlanIdentity
    public var startedAt: Date
    public var duration: Duration
    public var hostname: String
    /// Report properties in order: runner version, plan path, each domain map's answers.
    public var properties: [Property]
    /// The outcomes of its results, interrupted ones counted as skipped.
    public var counts: OutcomeCounts
    /// The latest lookup of each (HTTPDNS map, host) the plan asked, sorted by map and host.
    public var httpdnsLookups: [HTTPDNSLookupResult]

    public init(
        plan: PlanIdentity, startedAt: Date, duration: Duration, hostname: String, properties: [Property],
        counts: OutcomeCounts, httpdnsLookups: [HTTPDNSLookupResult] = []
    ) {
        self.plan = plan
        self.startedAt = startedAt
        self.duration = duration
        self.hostname = hostname
        self.properties = properties
        self.counts = counts
        self.httpdnsLookups = httpdnsLookups
    }
}

public struct Property: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One (scenario, strategy, IP) run and what came of it.
public struct ScenarioResult: Sendable {
    public var scenario: String
    /// The strategy actually used (`auto` already decided), e.g. `sni-resolve`.
    public var strategy: StrategyKind
    /// The pinned IP; nil under `system` (no pin).
    public var ip: String?
    public var tags: [String]
    public var outcome: Outcome
    public var evidence: Evidence
    /// From the first byte sent to the verdict.
    public var duration: Duration
    /// The attempts before this one that did not pass (`retries`), oldest first; `outcome`,
    /// `evidence` and `duration` are the last attempt's.
    public var earlierAttempts: [Attempt]
    /// A flow step's lane: the result it ran after, then that one's, back to the first step
    /// (`after:`); empty for a scenario that runs after none.
    public var after: [ResultStep] = []
    /// Run only because a scenario `--tag` or `--filter` selected runs after it.
    public var predecessorOnly = false

    public init(
        scenario: String, strategy: StrategyKind, ip: String?, tags: [String], outcome: Outcome,
        evidence: Evidence, duration: Duration, earlierAttempts: [Attempt] = [], after: [ResultStep] = []
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.ip = ip
        self.tags = tags
        self.outcome = outcome
        self.evidence = evidence
        self.duration = duration
        self.earlierAttempts = earlierAttempts
        self.after = after
    }

    /// Passed, but only on a retry.
    public var isFlaky: Bool {
        guard case .passed = outcome else { return false }
        return !earlierAttempts.isEmpty
    }

    /// How many times the result was run.
    public var attemptCount: Int { earlierAttempts.count + 1 }

    /// `SCENARIO [STRATEGY IP]` (JUnit testcase name; unique in a suite); `SCENARIO [system]`
    /// when nothing was pinned; a flow step adds ` after PREDECESSOR [STRATEGY IP]` for each
    /// result before it on its lane.
    public var displayName: String {
        let own = ResultStep(scenario: scenario, strategy: strategy, ip: ip).description
        guard !after.isEmpty else { return own }
        return ([own] + after.map(\.description)).joined(separator: " after ")
    }

    /// Hands `piece` the pieces of `displayName` in order, for a report that escapes each where
    /// it writes it: the name is not made (a string made and dropped twice a result). A flow
    /// step's name (after other results, rare) is handed over whole.
    @inlinable
    public func forEachDisplayNamePiece(_ piece: (String) -> Void) {
        guard after.isEmpty else { return piece(displayName) }
        piece(scenario)
        piece(" [")
        piece(strategy.rawValue)
        if let ip {
            piece(" ")
            piece(ip)
        }
        piece("]")
    }

    /// How many `expect.edges` misses of client `name` failed this result (0 unless it failed).
    public func schedulingMisses(of name: String) -> Int {
        guard case .failed(let problems) = outcome else { return 0 }
        let subject = Problem.edgesSubject(of: name)
        return problems.lazy.filter { $0.kind == .scheduling && $0.subject == subject }.count
    }

    /// This result as a step of the lanes that run after it.
    public var step: ResultStep { ResultStep(scenario: scenario, strategy: strategy, ip: ip) }
}

/// One result of a flow as the results after it name it: `SCENARIO [STRATEGY IP]`.
public struct ResultStep: Sendable, Equatable, CustomStringConvertible {
    public var scenario: String
    public var strategy: StrategyKind
    /// The pinned IP; nil under `system`.
    public var ip: String?

    public init(scenario: String, strategy: StrategyKind, ip: String?) {
        self.scenario = scenario
        self.strategy = strategy
        self.ip = ip
    }

    public var description: String { described(after: "") }

    /// `prefix` then the description, made in one piece.
    public func described(after prefix: String) -> String {
        guard let ip else { return String(concatenating: prefix, scenario, " [", strategy.rawValue, "]") }
        return String(concatenating: prefix, scenario, " [", strategy.rawValue, " ", ip, "]")
    }
}

/// One run of a result that did not pass and was retried.
public struct Attempt: Sendable {
    /// `.failed` or `.errored`.
    public var outcome: Outcome
    /// From the first byte sent to the verdict.
    public var duration: Duration

    public init(outcome: Outcome, duration: Duration) {
        self.outcome = outcome
        self.duration = duration
    }
}

public enum Outcome: Sendable {
    case passed
    /// Every unmet expectation, in the order the plan lists them.
    case failed([Problem])
    /// The transfer could not complete.
    case errored(TransferError)
    case skipped(reason: String)

    /// Whether the result passed (a skipped one did not).
    public var isPassed: Bool {
        if case .passed = self { return true }
        return false
    }

    public var counts: OutcomeCounts {
        switch self {
        case .passed: OutcomeCounts(passed: 1)
        case .failed: OutcomeCounts(failed: 1)
        case .errored: OutcomeCounts(errors: 1)
        case .skipped: OutcomeCounts(skipped: 1)
        }
    }
}

public struct OutcomeCounts: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var errors = 0
    public var skipped = 0

    public init(passed: Int = 0, failed: Int = 0, errors: Int = 0, skipped: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.errors = errors
        self.skipped = skipped
    }

    public var total: Int { passed + failed + errors + skipped }

    public static func + (lhs: OutcomeCounts, rhs: OutcomeCounts) -> OutcomeCounts {
        OutcomeCounts(
            passed: lhs.passed + rhs.passed, failed: lhs.failed + rhs.failed,
            errors: lhs.errors + rhs.errors, skipped: lhs.skipped + rhs.skipped)
    }

    /// `N passed, N failed, N errors` with `, N skipped` when any.
    public var summaryLine: String {
        var line = "\(passed) passed, \(failed) failed, \(errors) errors"
        if skipped > 0 { line += ", \(skipped) skipped" }
        return line
    }
}

/// An unmet expectation: what the plan asked for against what came back.
public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of expectation was not met: JUnit's `<failure type>`.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The response, its TLS or its DNS differed from what the plan expects.
        case expectation
        /// A user population was sent outside the edges `expect.edges` allows it, whatever
        /// the request did.
        case scheduling
        /// The app's own trust rules (`app:`) refuse what came back: cleartext it forbids, a
        /// chain no pin that applies matches, a TLS floor of ATS.
        case appPolicy = "app-policy"
        /// The address a population's HTTPDNS SDK picks (`sdk:`) failed: their apps are on it.
        case pick
        /// A gRPC call's answer (`expect.grpc`): its status, its serving status, or no gRPC at all.
        case grpc
    }

    /// Which expectation, e.g. `status`, `header Content-Type`, `body json $.user.id`;
    /// `edges gd-mobile` for a scheduling miss of client `gd-mobile`.
    public var subject: String
    public var expected: String
    public var actual: String
    public var kind: Kind

    public init(subject: String, expected: String, actual: String, kind: Kind = .expectation) {
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.kind = kind
    }

    /// `status: expected 200, got 503`; a scheduling miss reads as a sentence of its own:
    /// `gd-mobile (isp=china-mobile) was sent 111.13.0.5, outside 120.196.0.0/16`.
    /// The subject of client `name`'s scheduling misses.
    public static func edgesSubject(of name: String) -> String { "edges " + name }

    public var description: String {
        switch kind {
        case .expectation: "\(subject): expected \(expected), got \(actual)"
        case .scheduling: "\(actual), outside \(expected)"
        case .appPolicy: "\(subject): \(actual) (the app requires \(expected))"
        case .pick: actual
        case .grpc: "\(subject): expected \(expected), got \(actual)"
        }
    }
}
