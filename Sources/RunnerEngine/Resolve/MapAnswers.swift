import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Asks each plan's domain maps for the hosts its scenarios request, sending nothing to the
/// hosts themselves (`runner resolve`). Each (map, host) that a scenario pins through is asked
/// once, as the first scenario that requests it asks (its `ip_version`, CA, resolver and
/// connect timeout), concurrently on one engine, as a run would: cache, fallback and the
/// service's own timeout included.
public enum MapAnswers {
    /// The answers, plan by plan, each plan's in the order its scenarios first request them.
    public static func ask(_ plans: [Plan], jobs: Int, redactor: Redactor?) throws(CurlError) -> [MapAnswer] {
        let engine = try TransferEngine(maxInFlight: max(1, jobs))
        var answers: [[MapAnswer?]] = []
        // Kept until the engine has run: each answers on the engine's thread.
        var resolvers: [DomainResolver] = []
        for (planIndex, plan) in plans.enumerated() {
            let resolver = DomainResolver(plan: plan, engine: engine, redactor: redactor)
            resolvers.append(resolver)
            let questions = Self.questions(in: plan)
            answers.append(Array(repeating: nil, count: questions.count))
            for (index, scenario) in questions.enumerated() {
                let host = scenario.request.url.host
                resolver.resolve(
                    host: host, map: scenario.domainMap, ipVersion: scenario.ipVersion, caFile: scenario.settings.caFile,
                    resolver: scenario.settings.resolver, systemTimeout: scenario.settings.connectTimeout
                ) { result in
                    answers[planIndex][index] = Self.row(
                        result, plan: plan.path, map: scenario.domainMap, host: host, ipVersion: scenario.ipVersion,
                        redactor: redactor)
                }
            }
        }
        engine.run()
        return withExtendedLifetime(resolvers) { answers.flatMap { $0.compactMap { $0 } } }
    }

    /// The first scenario to request each (map, host) that a strategy of it pins through; a host
    /// written as an IP address asks no map.
    static func questions(in plan: Plan) -> [Scenario] {
        var seen: Set<[String]> = []
        return plan.scenarios.filter { scenario in
            let host = scenario.request.url.host
            guard ResultExpansion.needsResolution(scenario, override: nil), IPAddress(host) == nil else { return false }
            return seen.insert([scenario.domainMap, host]).inserted
        }
    }

    private static func row(
        _ result: Result<Resolution, TransferError>, plan: String, map: String, host: String, ipVersion: IPVersionPreference,
        redactor: Redactor?
    ) -> MapAnswer {
        let mask = { (text: String) in redactor?.redact(text) ?? text }
        switch result {
        case .success(let resolution):
            // A fallback's note starts as the row's source column already says.
            let notes = resolution.notes.map { $0.hasPrefix("fallback: ") ? String($0.dropFirst("fallback: ".count)) : $0 }
            let detail = ([resolution.source] + notes).joined(separator: "; ")
            return MapAnswer(
                plan: plan, map: map, host: host, client: nil, labels: [:],
                addresses: resolution.ordered(for: ipVersion).map(\.text), ttl: resolution.ttl,
                source: resolution.fallbackFrom == nil ? .answer : .fallback, detail: mask(detail))
        case .failure(let error):
            return MapAnswer(
                plan: plan, map: map, host: host, client: nil, labels: [:], addresses: [], ttl: nil, source: .error,
                detail: mask(error.message))
        }
    }
}
