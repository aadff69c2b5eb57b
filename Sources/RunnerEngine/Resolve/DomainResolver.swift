import Foundation
import RunnerPlan
import RunnerResults
import RunnerState
import RunnerVocabulary

/// Turns hosts into IPs through a plan's domain maps, the way a client SDK does: each question
/// (`ResolutionKey`: map, host, client, address family) is looked up once however many scenarios
/// ask at once, and the answer is reused while its TTL lasts. What it asks beyond its own lists
/// (HTTPDNS services, resolvers, ranking connects) goes through its `AnswerSources`: a run's
/// engine, or a test's script. Lives on the engine's thread.
final class DomainResolver {
    typealias Completion = (Result<Resolution, TransferError>) -> Void

    /// One answer given during the run, for the suite's properties.
    struct Record {
        var map: String
        var host: String
        /// The population asked as; nil: as this machine.
        var client: String?
        var answer: Result<Resolution, TransferError>
    }

    private let plan: Plan
    private let sources: AnswerSources
    private let clock: MonotonicClock
    private let wallClock: WallClock
    private let memory: ResolutionMemory?
    /// What the services returned before, for maps with `retain:` (nil: no memory).
    /// This run's answers for the plan's maps with `retain:`.
    private let addressRecording: AddressRecording?
    /// The run's secrets, masked in the body an HTTPDNS error quotes (nil: none).
    private let redactor: Redactor?
    /// The maps whose answer may come from a scenario's resolver: their answers are kept per resolver.
    private let mapsReachingResolver: Set<String>
    private var cache = ResolutionCache<Completion>()
    /// Every lookup's answer, in the order they came.
    private(set) var records: [Record] = []
    /// Every HTTPDNS service lookup, in the order they ended: the service's own outcome and
    /// time, before any fallback (`records` holds the map's answer, fallback included).
    private(set) var httpdnsLookups: [HTTPDNSLookupResult] = []

    /// `sources`: a run's are its engine's, with the cycle's ranking connects shared by every
    /// plan's resolver (`AnswerSources(engine:probes:clock:)`).
    init(
        plan: Plan, sources: AnswerSources, clock: MonotonicClock = .system, wallClock: WallClock = .system,
        memory: ResolutionMemory? = nil, addressMemory: AddressMemory? = nil, redactor: Redactor? = nil
    ) {
        self.plan = plan
        self.sources = sources
        self.addressRecording = addressMemory?.recording(plan: plan.name)
        self.redactor = redactor
        self.clock = clock
        self.wallClock = wallClock
        self.memory = memory
        self.mapsReachingResolver = Plan.mapsReachingSystemResolver(plan.domainMaps)
    }

    /// Answers `host` through map `mapName`; `completion` runs on the engine's thread (at once
    /// for built-in lists and cached answers). `resolver` answers where the machine's resolver
    /// would (the `system` map, `fallback: system`), within `systemTimeout` (HTTPDNS services
    /// have their map's own `timeout`).
    ///
    /// `client`: the user population to ask as, for a map asked as clients (`clients:`); a map
    /// that is not (a list, the machine's resolver, a service without `clients`) answers alike.
    func resolve(
        host: String, map mapName: String, ipVersion: IPVersionPreference, caFile: String?,
        resolver: ResolverChoice, systemTimeout: Duration, client: ClientPopulation? = nil, completion: @escaping Completion
    ) {
        if let literal = IPAddress(host) {
            completion(.success(Resolution(addresses: [literal], source: "IP literal in the URL", lookupTime: .zero)))
            return
        }
        // The map read in place, where it is in the plan.
        guard let mapIndex = mapName == systemDomainMapName ? nil : plan.domainMapIndex(named: mapName) else {
            if mapName == systemDomainMapName {
                // getaddrinfo asks both families at once; a DNS server is asked what `ip_version` needs.
                let family: IPVersionPreference = resolver == .system ? .any : ipVersion
                answer(key(mapName, host, family: family, resolver: resolver), completion: completion) { [self] done in
                    sources.resolver(host, resolver, ipVersion, systemTimeout) { result in
                        done(result, (try? result.get())?.ttl)
                    }
                }
            } else {
                completion(.failure(TransferError(kind: .resolve, message: "no domain map named '\(mapName)'")))
            }
            return
        }
        switch plan.domainMaps[mapIndex].source {
        case .staticList(let entries):
            answer(key(mapName, host, family: .any), completion: completion) { done in
                guard let entry = entries.first(where: { $0.host == host }) else {
                    done(.failure(TransferError(
                        kind: .resolve, message: "host '\(host)' is not in static map '\(mapName)'",
                        diagnosis: "add it to domains.\(mapName).static or use another map")), nil)
                    return
                }
                done(.success(Resolution(addresses: entry.addresses, source: "static map '\(mapName)'", lookupTime: .zero)), nil)
            }
        case .httpdns(let service):
            let keyResolver = mapsReachingResolver.contains(mapName) ? resolver : nil
            // Only a map asked as clients answers each one apart.
            let client = service.clients == nil ? nil : client
            let key = key(mapName, host, family: ipVersion, resolver: keyResolver, client: client?.name)
            answer(key, completion: completion) { [self] done in
                // Serve's memory keeps the service's own answers, never a fallback's: the resolver stays out of its key.
                var kept = key
                kept.resolver = nil
                if let (resolution, ttl) = memory?.answer(for: kept, service: service, now: clock.now()) {
                    // A kept answer is the service's too (its series stay from cycle to cycle), taking no time.
                    httpdnsLookups.append(HTTPDNSLookupResult(
                        map: mapName, host: host, client: client?.name, succeeded: true, duration: .zero, addressCount: resolution.addresses.count))
                    pick(resolution, service: service) { done(.success($0), ttl) }
                    return
                }
                let startedAt = clock.now()
                let lookup = HTTPDNSLookup(
                    mapName: mapName, service: service, host: host, ipVersion: ipVersion, caFile: caFile,
                    wallClock: wallClock, redactor: redactor, client: client)
                sources.service(lookup) { [self] result in
                    let answer = try? result.get()
                    httpdnsLookups.append(HTTPDNSLookupResult(
                        map: mapName, host: host, client: client?.name, succeeded: answer != nil,
                        duration: clock.elapsed(since: startedAt), addressCount: answer?.addresses.count ?? 0))
                    switch result {
                    case .success(var resolution):
                        if let retain = service.retentionWindow(ttl: resolution.ttl.map { .seconds($0) }) {
                            remember(&resolution, as: key.answer, retain: retain)
                        }
                        memory?.remember(resolution, for: kept, service: service, now: clock.now())
                        pick(resolution, service: service) { done(.success($0), $0.ttl) }
                    case .failure(let error):
                        fallBack(
                            from: mapName, service: service, error: error, host: host, ipVersion: ipVersion,
                            caFile: caFile, resolver: resolver, systemTimeout: systemTimeout, client: client
                        ) { done($0, nil) }
                    }
                }
            }
        }
    }

    /// A map with `retain:`: records the service's answer as soon as it came, and adds the
    /// addresses it returned within the window that it no longer returns. A state file that
    /// fails now is said in the answer's notes; the current answer stands.
    private func remember(_ resolution: inout Resolution, as answer: AnswerKey, retain: Duration) {
        guard let recording = addressRecording else { return }
        let now = wallClock.now()
        do throws(StateStoreError) {
            let returned = try recording.answer(answer, addresses: resolution.addresses.map(\.text), at: now, window: retain)
            resolution.retained = returned.compactMap { row in
                IPAddress(row.address).map { address in
                    RetainedAddress(address: address, evidence: RetainedEvidence(
                        map: answer.map, client: row.client, firstReturned: row.firstReturned, lastReturned: row.lastReturned,
                        age: .seconds(max(0, now.timeIntervalSince(row.lastReturned))), window: retain))
                }
            }
        } catch {
            resolution.notes.append("retain: \(error)")
        }
    }

    /// On a map with `sdk:`, the SDK's pick from the service's answer: when the app ranks,
    /// after the ranking's connects (on a thread of their own, one per (address, port) in the
    /// cycle); the SDKs apply a ranking to the next lookup, so this is the pick of an app that
    /// has been running. Without `sdk:` the answer as it came. `completion` runs on the engine's thread.
    private func pick(_ resolution: Resolution, service: HTTPDNSSpec, completion: @escaping (Resolution) -> Void) {
        guard let profile = service.sdk else { return completion(resolution) }
        let answer = resolution.addresses
        let ranked = AnswerPick.rankedAddresses(of: answer, profile: profile)
        guard let ranking = profile.ranking, !ranked.isEmpty else {
            var picked = resolution
            picked.pick = AnswerPick(answer: answer, profile: profile, connects: nil, port: nil)
            return completion(picked)
        }
        sources.connects(ranked, ranking.port, ConnectProbe(ranking: ranking)) { result in
            var picked = resolution
            switch result {
            case .success(let connects):
                picked.pick = AnswerPick(answer: answer, profile: profile, connects: connects, port: ranking.port)
            case .failure(let failure):
                picked.pick = AnswerPick(answer: answer, profile: profile, connects: nil, port: nil)
                picked.notes.append("sdk: the ranking connects did not end (\(failure.message)); the service's order stands")
            }
            completion(picked)
        }
    }

    /// Serves a cached or pending answer, or starts `lookUp` and shares its answer with every
    /// asker that comes while it runs.
    private func answer(
        _ key: ResolutionKey, completion: @escaping Completion,
        lookUp: (@escaping (Result<Resolution, TransferError>, _ ttl: Int?) -> Void) -> Void
    ) {
        switch cache.lookUp(key, for: completion, now: clock.now()) {
        case .cached(let result):
            completion(result)
        case .joined:
            break
        case .start:
            lookUp { [self] result, ttl in
                guard let (answer, waiters) = cache.answered(key, result, ttl: ttl, now: clock.now()) else { return }
                records.append(Record(map: key.answer.map, host: key.answer.host, client: key.answer.client, answer: answer))
                for waiter in waiters { waiter(answer) }
            }
        }
    }

    /// The map's `fallback:` after its service failed: none (the failure stands), the system
    /// resolver, or another map; a fallback answer says so in its notes.
    private func fallBack(
        from mapName: String, service: HTTPDNSSpec, error: TransferError, host: String,
        ipVersion: IPVersionPreference, caFile: String?, resolver: ResolverChoice, systemTimeout: Duration,
        client: ClientPopulation?, completion: @escaping Completion
    ) {
        let degraded = { (result: Result<Resolution, TransferError>, target: String) -> Result<Resolution, TransferError> in
            switch result {
            case .success(var resolution):
                resolution.notes.insert("fallback: HTTPDNS map '\(mapName)' failed (\(error.message)); used \(target)", at: 0)
                resolution.source += " (fallback for '\(mapName)')"
                resolution.fallbackFrom = mapName
                // The app's SDK picks among what it fell back to, as it does (another map's
                // own SDK is not the app's).
                resolution.pick = service.sdk.map { AnswerPick(fallback: resolution.addresses, source: target, profile: $0) }
                return .success(resolution)
            case .failure(let fallbackError):
                return .failure(TransferError(
                    kind: .resolve, message: "\(error.message); fallback \(target) failed too: \(fallbackError.message)"))
            }
        }
        switch service.fallback {
        case .none:
            completion(.failure(error))
        case .system:
            let target = resolver == .system ? "the system resolver" : "resolver \(resolver)"
            sources.resolver(host, resolver, ipVersion, systemTimeout) {
                completion(degraded($0, target))
            }
        case .map(let other):
            // The fallback map is asked as the same client when it asks as clients at all.
            resolve(
                host: host, map: other, ipVersion: ipVersion, caFile: caFile, resolver: resolver,
                systemTimeout: systemTimeout, client: client
            ) { result in
                completion(degraded(result, "map '\(other)'"))
            }
        }
    }

    /// The key of `map`'s answer for `host` (as `client`; nil: this machine), asked for `family`
    /// (of `resolver`, for a map whose answer may come from one): the one place an answer's
    /// identity is filled in.
    private func key(
        _ map: String, _ host: String, family: IPVersionPreference, resolver: ResolverChoice? = nil, client: String? = nil
    ) -> ResolutionKey {
        ResolutionKey(answer: AnswerKey(plan: plan.name, map: map, host: host, client: client), family: family, resolver: resolver)
    }
}
