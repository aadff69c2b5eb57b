import RunnerHTTPDNS
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// A host looked up by the resolver a scenario names (`resolver:`): the machine's (getaddrinfo)
/// or a DNS server asked directly, each question kept as evidence. Blocks: the resolver runs it
/// on a thread of its own, bounded by the scenario's `connect_timeout`.
enum ResolverLookup {
    /// - Parameter clock: what each question's time and the timeout over them are read on.
    static func resolve(
        host: String, resolver: ResolverChoice, ipVersion: IPVersionPreference, timeout: Duration, clock: MonotonicClock
    ) -> Result<Resolution, TransferError> {
        switch resolver {
        case .system:
            return SystemResolver.resolve(host: host, clock: clock)
        case .server(let server, let port):
            return askServer(host: host, server: server, port: port, ipVersion: ipVersion, timeout: timeout, clock: clock)
        }
    }

    /// A and/or AAAA by `ip_version`, one after the other within `timeout` in all; the host
    /// resolves when either question gives addresses.
    private static func askServer(
        host: String, server: IPAddress, port: Int, ipVersion: IPVersionPreference, timeout: Duration,
        clock: MonotonicClock
    ) -> Result<Resolution, TransferError> {
        let name = ResolverChoice.server(server, port: port).description
        let families: [IPAddress.Family] = switch ipVersion {
        case .v4: [.v4]
        case .v6: [.v6]
        case .any: [.v4, .v6]
        }
        let deadline = clock.now() + UInt64(max(0, timeout.inSeconds) * 1e9)
        var questions: [DNSQuestionEvidence] = []
        var addresses: [IPAddress] = []
        var ttls: [Int] = []
        var problems: [DNSServerProblem] = []
        for family in families {
            let started = clock.now()
            guard started < deadline else {
                problems.append(.exchange(.timedOut))
                break
            }
            let reply = DNSServerQuery.lookup(
                host: host, family: family, server: server, port: port, timeout: .nanoseconds(Int64(deadline - started)))
            let duration = clock.elapsed(since: started)
            let type = family == .v4 ? "A" : "AAAA"
            switch reply.answer {
            case .success(let answer):
                addresses += answer.addresses
                if let ttl = answer.ttl { ttls.append(ttl) }
                questions.append(DNSQuestionEvidence(
                    type: type, rcode: reply.rcode, addresses: answer.addresses.map(\.text), ttl: answer.ttl,
                    aliases: answer.aliases, duration: duration, problem: nil))
            case .failure(let problem):
                problems.append(problem)
                questions.append(DNSQuestionEvidence(
                    type: type, rcode: reply.rcode, addresses: [], ttl: nil, aliases: [], duration: duration,
                    problem: problem.description))
            }
        }
        // A server that fails one question fails the lookup: its other answer may be as wrong.
        if let failure = problems.first(where: { !$0.isNoAnswer }) {
            return .failure(TransferError(
                kind: .resolve, message: "resolver \(name) failed for '\(host)': \(failure.description)"))
        }
        guard !addresses.isEmpty else {
            let causes = problems.map(\.description).joined(separator: "; ")
            return .failure(TransferError(kind: .resolve, message: "resolver \(name): no answer for '\(host)' (\(causes))"))
        }
        var resolution = Resolution(
            addresses: addresses, source: "resolver \(name)", lookupTime: .zero, ttl: ttls.min())
        resolution.dns = DNSLookupEvidence(resolver: name, host: host, questions: questions)
        return .success(resolution)
    }
}
