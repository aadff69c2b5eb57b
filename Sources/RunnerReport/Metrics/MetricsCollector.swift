import Foundation
import RunnerResults

/// Takes a run's results as they finish and keeps what the metrics show of each (about a
/// hundred bytes and its labels, not the result), then gives the cycle's samples once the run
/// has ended. Called on one thread at a time, as every `ResultSink`.
public final class MetricsCollector: ResultSink {
    private let redactor: Redactor
    private let plans: [String]
    private var results: [ResultSamples] = []
    /// The TLS facts met so far, one object per distinct session and certificate.
    private var sessions = ResultSamples.TLSSample.Cache()
    /// Whether `results` are in plan order (results finish out of order when jobs > 1).
    private var inOrder = true
    /// Whether masking a secret changed a scenario's or an IP's label (two may then read alike).
    private var redactedLabels = false
    /// What the results show of their apps' rules.
    private var apps = AppPolicyTally()
    /// The addresses the populations' SDKs pick, and how their results went.
    private var picks = AppPickTally()

    /// A collector for a run of `plans`.
    public init(plans: [PlanIdentity], redactor: Redactor) {
        self.redactor = redactor
        self.plans = Self.planLabels(plans, redactor: redactor)
    }

    public func finished(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    public func notRun(_ result: ScenarioResult, at position: ResultPosition) {
        add(result, at: position)
    }

    private func add(_ result: ScenarioResult, at position: ResultPosition) {
        if let last = results.last, position < last.position { inOrder = false }
        let samples = ResultSamples(result, at: position, redactor: redactor, sessions: &sessions)
        if samples.scenario != result.scenario || samples.ip != (result.ip ?? "") { redactedLabels = true }
        results.append(samples)
        apps.add(result, plan: position.suite, redactor: redactor)
        if result.evidence.pick != nil { picks.add(result, at: position) }
    }

    /// The samples of the run that has ended, `run`: every result handed over, in plan order,
    /// each one's labels unique, and each plan's HTTPDNS lookups.
    public func samples(of run: RunResult) -> CycleSamples {
        if !inOrder {
            results.sort { $0.position < $1.position }
            inOrder = true
        }
        Self.makeIdentitiesUnique(&results, checkAll: redactedLabels)
        var lookups: [(plan: Int, lookup: HTTPDNSLookupResult)] = []
        var taken = Set<[String]>()
        for (plan, suite) in run.suites.enumerated() where plan < plans.count {
            for var lookup in suite.httpdnsLookups {
                lookup.map = redactor.redact(lookup.map)
                let host = redactor.redact(lookup.host)
                lookup.client = lookup.client.map(redactor.redact)
                // The engine gives one lookup per map, host and client; masking a secret could make two alike.
                lookup.host = host
                var occurrence = 1
                while !taken.insert([plans[plan], lookup.map, lookup.host, lookup.client ?? ""]).inserted {
                    occurrence += 1
                    lookup.host = "\(host) #\(occurrence)"
                }
                lookups.append((plan, lookup))
            }
        }
        var cycle = CycleSamples(
            plans: plans, results: results, lookups: lookups, duration: run.duration.inSeconds,
            endedAt: run.startedAt.addingTimeInterval(run.duration.inSeconds))
        cycle.apps = apps
        if !picks.isEmpty { cycle.picks = picks.samples(redactor: redactor) }
        return cycle
    }

    /// Each plan's `plan` label: its name, redacted. Plans that share a name (two files both
    /// named `api`, or one file given twice) are told apart by their file, then by their
    /// place (` #2`), so no two plans' series collide.
    static func planLabels(_ plans: [PlanIdentity], redactor: Redactor) -> [String] {
        let names = plans.map { redactor.redact($0.name) }
        var taken = Set<String>()
        return names.indices.map { index in
            let shared = names.filter { $0 == names[index] }.count > 1
            let label = shared ? "\(names[index]) (\(redactor.redact(plans[index].file)))" : names[index]
            var unique = label
            var occurrence = 1
            while !taken.insert(unique).inserted {
                occurrence += 1
                unique = "\(label) #\(occurrence)"
            }
            return unique
        }
    }

    /// Makes every result's (plan, scenario, strategy, ip) unique, which the exposition needs
    /// (a repeated series is an error Prometheus and promtool reject): scenario names are
    /// unique in a plan and each strategy and IP is run once per scenario, but an address
    /// listed twice in a static map runs twice. The later one's scenario label then gets
    /// ` #2` (` #3`, …), in plan order. `results` are in plan order. `checkAll`: labels may
    /// repeat across scenarios too (a masked secret made two names alike).
    static func makeIdentitiesUnique(_ results: inout [ResultSamples], checkAll: Bool = false) {
        // Otherwise only results of one scenario can share their labels: compare within each (cheap).
        var repeated = checkAll
        var start = 0
        while start < results.count, !repeated {
            var end = start + 1
            while end < results.count, results[end].position.suite == results[start].position.suite,
                results[end].position.scenario == results[start].position.scenario {
                end += 1
            }
            for later in start..<end where !repeated {
                repeated = (start..<later).contains {
                    results[$0].strategy == results[later].strategy && results[$0].ip == results[later].ip
                        && results[$0].after == results[later].after
                }
            }
            start = end
        }
        guard repeated else { return }
        // A new label could equal another scenario's: check against every identity.
        struct Identity: Hashable {
            var suite: Int
            var scenario: String
            var strategy: String
            var ip: String
            var after: String
        }
        var taken = Set<Identity>()
        for index in results.indices {
            let result = results[index]
            var identity = Identity(
                suite: result.position.suite, scenario: result.scenario, strategy: result.strategy, ip: result.ip,
                after: result.after)
            var occurrence = 1
            while taken.contains(identity) {
                occurrence += 1
                identity.scenario = "\(result.scenario) #\(occurrence)"
            }
            taken.insert(identity)
            results[index].scenario = identity.scenario
        }
    }
}
