import RunnerResults

/// A cycle's app series (`app:`): when each app's pins for a host expire, per platform, and how
/// many results of each (app, host, strategy) each kind of refusal or warning touched. Kept in
/// the order met, so the exposition is stable from cycle to cycle.
struct AppPolicyTally: Sendable {
    struct ExpiryKey: Hashable, Sendable {
        var plan: Int
        var app: String
        var platform: String
        var host: String
    }

    struct ProblemKey: Hashable, Sendable {
        var plan: Int
        var app: String
        var host: String
        var strategy: String
        /// A refusal (`pins`, `cleartext`, `ats`) or a warning's kind (`pins-expired`, …).
        var kind: String
    }

    private(set) var expiries: [(key: ExpiryKey, seconds: Double)] = []
    private(set) var problems: [(key: ProblemKey, count: Int)] = []
    private var expiryIndex: [ExpiryKey: Int] = [:]
    private var problemIndex: [ProblemKey: Int] = [:]

    var isEmpty: Bool { expiries.isEmpty && problems.isEmpty }

    /// Adds what `result` (of plan `plan`) shows of its apps' rules, labels masked by `redactor`.
    mutating func add(_ result: ScenarioResult, plan: Int, redactor: Redactor) {
        let evidence = result.evidence
        guard !evidence.appPolicies.isEmpty else { return }
        let strategy = result.strategy.rawValue
        var touched: Set<ProblemKey> = []
        for policy in evidence.appPolicies {
            let app = redactor.redact(policy.app)
            let host = redactor.redact(policy.host)
            // The name's pins: an address-keyed lookup's are the ones IP direct leaves off.
            if policy.keyedOn == .name, let expiry = policy.policy.pinsExpiry {
                let key = ExpiryKey(plan: plan, app: app, platform: policy.policy.platform.rawValue, host: host)
                if expiryIndex[key] == nil {
                    expiryIndex[key] = expiries.count
                    expiries.append((key, expiry.timeIntervalSince1970))
                }
            }
            for refusal in policy.refused {
                touched.insert(ProblemKey(plan: plan, app: app, host: host, strategy: strategy, kind: refusal.rawValue))
            }
        }
        let host = redactor.redact(evidence.appPolicies[0].host)
        for warning in evidence.appWarnings {
            touched.insert(ProblemKey(plan: plan, app: redactor.redact(warning.app), host: host, strategy: strategy, kind: warning.kind.rawValue))
        }
        // A result counts once per key, however many of the app's platforms refused it.
        for key in touched.sorted(by: { ($0.app, $0.kind) < ($1.app, $1.kind) }) { count(key) }
    }

    private mutating func count(_ key: ProblemKey) {
        if let index = problemIndex[key] {
            problems[index].count += 1
        } else {
            problemIndex[key] = problems.count
            problems.append((key, 1))
        }
    }
}
