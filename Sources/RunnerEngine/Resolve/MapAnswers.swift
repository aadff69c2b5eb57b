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
    /// `onlyClients`: a map asked as client populations is asked as these alone (nil: all of its own).
    public static func ask(
        _ plans: [Plan], jobs: Int, redactor: Redactor?, onlyClients: Set<String>? = nil
    ) throws(CurlError) -> [MapAnswer] {
        let engine = try TransferEngine(maxInFlight: max(1, jobs))
        var answers: [[MapAnswer?]] = []
        // Kept until the engine has run: each answers on the engine's thread.
        var resolvers: [DomainResolver] = []
        let probes = ConnectProbeCycle()
        for (planIndex, plan) in plans.enumerated() {
            let resolver = DomainResolver(
                plan: plan, sources: AnswerSources(engine: engine, probes: probes, clock: .system), redactor: redactor)
            resolvers.append(resolver)
            let questions = Self.questions(in: plan, onlyClients: onlyClients)
            answers.append(Array(repeating: nil, count: questions.count))
            for (index, question) in questions.enumerated() {
                let scenario = question.scenario
                let host = scenario.request.url.host
                resolver.resolve(
                    host: host, map: scenario.domainMap, ipVersion: scenario.ipVersion, caFile: scenario.settings.caFile,
                    resolver: scenario.settings.resolver, systemTimeout: scenario.settings.connectTimeout, client: question.client
                ) { result in
                    answers[planIndex][index] = Self.row(
                        result, plan: plan.path, map: scenario.domainMap, host: host, client: question.client,
                        ipVersion: scenario.ipVersion, redactor: redactor)
                }
            }
        }
        engine.run()
        return withExtendedLifetime(resolvers) { answers.flatMap { $0.compactMap { $0 } } }
    }

    /// One lookup to make: a map and host, as the first scenario that requests them asks, as
    /// one of the map's clients (nil: as this machine).
    struct Question {
        var scenario: Scenario
        var client: ClientPopulation?
    }

    /// The first scenario to request each (map, host) that a strategy of it pins through, once
    /// per client the map is asked as; a host written as an IP address asks no map.
    static func questions(in plan: Plan, onlyClients: Set<String>? = nil) -> [Question] {
        var seen: Set<[String]> = []
        return plan.scenarios.flatMap { scenario -> [Question] in
            let host = scenario.request.url.host
            guard ResultExpansion.needsResolution(scenario, override: nil), IPAddress(host) == nil,
                  seen.insert([scenario.domainMap, host]).inserted
            else { return [] }
            let clients = plan.clients(askedBy: scenario.domainMap)
            guard !clients.isEmpty else { return [Question(scenario: scenario)] }
            return clients.filter { onlyClients?.contains($0.name) ?? true }.map { Question(scenario: scenario, client: $0) }
        }
    }

    private static func row(
        _ result: Result<Resolution, TransferError>, plan: String, map: String, host: String, client: ClientPopulation?,
        ipVersion: IPVersionPreference, redactor: Redactor?
    ) -> MapAnswer {
        let labels = Dictionary(uniqueKeysWithValues: (client?.labels ?? []).map { ($0.name, $0.value) })
        let mask = { (text: String) in redactor?.redact(text) ?? text }
        switch result {
        case .success(let resolution):
            // A fallback's note starts as the row's source column already says.
            let notes = resolution.notes.map { $0.hasPrefix("fallback: ") ? String($0.dropFirst("fallback: ".count)) : $0 }
            let detail = ([resolution.source] + notes).joined(separator: "; ")
            var row = MapAnswer(
                plan: plan, map: map, host: host, client: client?.name, labels: labels,
                addresses: resolution.ordered(for: ipVersion).map(\.text), ttl: resolution.ttl,
                source: resolution.fallbackFrom == nil ? .answer : .fallback, detail: mask(detail))
            row.pick = resolution.pick.map { pick in
                pick.choice.picked.map { MapAnswer.Picked(address: $0.address.text, reason: $0.reason.description) }
            }
            return row
        case .failure(let error):
            return MapAnswer(
                plan: plan, map: map, host: host, client: client?.name, labels: labels, addresses: [], ttl: nil, source: .error,
                detail: mask(error.message))
        }
    }
}
